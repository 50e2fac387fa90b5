import { DioscError } from '@diosc/protocol';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import { fastifySSE } from '@fastify/sse';
import type { FastifyPluginAsync } from 'fastify';
import { pruneRateWindows, rateLimitStoreOption } from '../http/shared-rate-store.js';
import { startPeriodic } from '../periodic.js';
import { agUiRoute } from './ag-ui/ag-ui-route.js';
import { listenToOtherInstances } from './cluster/listen.js';
import { createLogWatch } from './events/log-watch.js';
import type { Hub } from './hub.js';
import type { HubOptions } from './hub-context.js';
import { createHubServices } from './hub-context.js';
import { assistantRoute } from './routes/assistant-route.js';
import { conversationRoutes } from './routes/conversation-routes.js';
import { downloadRoute } from './routes/download-route.js';
import { eventsRoute } from './routes/events-route.js';
import { answerRoutes } from './routes/interrupt-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { uploadRoute } from './routes/upload-route.js';
import { startDeadlineSweeper } from './tool-calls/deadline-sweeper.js';
import { createTurnRunner } from './turns/turn-runner.js';
import { visitorMessageLimit } from './visitors/message-limit.js';
import { visitorAuth } from './visitors/visitor-auth.js';
import { createVisitorCaps } from './visitors/visitor-caps.js';

const SESSIONS_PER_MINUTE_PER_ADDRESS = 30;
const HOUR_MS = 60 * 60 * 1000;

/**
 * The assistant hub at `/api/hub`: visitor sessions, conversations, turns, interrupts for browser
 * tools, Consensus and the event stream. Authenticated by a visitor session token (bearer), never
 * by a cookie; CORS answers only origins some assistant allows.
 */
export const hubPlugin: FastifyPluginAsync<{ options?: HubOptions }> = async (app, { options = {} }) => {
  const hub = createHubServices(app.diosc, app.log, options);
  const runner = createTurnRunner(hub);
  // Built once: routes, commands and the rest of the app reach the hub through this one object.
  const hubWithRunner: Hub = { services: hub, runner };
  app.diosc.hub = hubWithRunner;
  // Listening before serving: nothing another instance announces from here on is missed.
  await hub.signals.start();
  const unlisten = listenToOtherInstances(hub, runner);
  const stopSweeper = startDeadlineSweeper(hub, runner, options.sweepIntervalMs ?? 1_000);
  const stopPruner = startPeriodic(hub.files.prune, {
    intervalMs: options.filePruneIntervalMs ?? HOUR_MS,
    onError: (error) => app.log.warn({ err: error }, 'file pruning failed'),
  });
  const stopLogWatch = startPeriodic(createLogWatch(hub.events, hub.bus, app.diosc.store.dataVersion), {
    intervalMs: hub.eventPollMs,
    onError: (error) => app.log.warn({ err: error }, 'looking at the event log failed'),
  });
  const stopRatePruner =
    app.diosc.store.dialect === 'postgres'
      ? startPeriodic(() => pruneRateWindows(app.diosc.store.db), {
          intervalMs: HOUR_MS,
          onError: (error) => app.log.warn({ err: error }, 'rate window pruning failed'),
        })
      : () => {};
  app.addHook('onClose', async () => {
    stopSweeper();
    stopPruner();
    stopLogWatch();
    stopRatePruner();
    await runner.drain();
    await hub.modelUsage.flush();
    unlisten();
    await hub.signals.close();
  });

  // An OPTIONS request from a page that is no preflight (no Access-Control-Request-Method) is
  // refused in our own shape; @fastify/cors would answer it 400 in plain text.
  app.addHook('onRequest', (request, _reply, done) => {
    if (
      request.method === 'OPTIONS' &&
      request.headers.origin !== undefined &&
      request.headers['access-control-request-method'] === undefined
    )
      done(new DioscError('invalid_input', 'An OPTIONS request here must be a CORS preflight.'));
    else done();
  });
  await app.register(cors, {
    origin: (origin, callback) => {
      if (!origin) return callback(null, false);
      hub.assistants.originAllowed(origin).then(
        (allowed) => callback(null, allowed),
        (error: unknown) => callback(error as Error, false),
      );
    },
    methods: ['GET', 'POST'],
    allowedHeaders: ['authorization', 'content-type', 'last-event-id', 'range'],
    // The widget reads a download's name and range from a cross-origin fetch.
    exposedHeaders: ['content-disposition', 'content-range', 'content-length'],
    credentials: false,
    maxAge: 600,
  });
  // After CORS, so a page can read the refusal; before any route runs (and before authentication).
  const caps = createVisitorCaps(app.diosc.http);
  app.addHook('onRequest', (request, reply, done) => {
    done(caps.admitAddress(request, reply));
  });
  await app.register(fastifySSE, { heartbeatInterval: 15_000 });
  await app.register(rateLimit, {
    global: false,
    // Shared by every instance over one PostgreSQL; in memory on SQLite (one process).
    ...rateLimitStoreOption(app.diosc.store),
    errorResponseBuilder: (_request, context) =>
      new DioscError('rate_limited', 'Too many requests; slow down.', { retryAfterMs: context.ttl }),
  });
  const messageLimit = visitorMessageLimit(app, hub);
  app.addHook('onSend', async (_request, reply) => {
    // A download sets its own (`private, no-store`); everything else is `no-store`.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  await app.register(
    sessionRoutes(hub, {
      perMinutePerAddress: SESSIONS_PER_MINUTE_PER_ADDRESS,
      previewOrigin: app.diosc.config.publicOrigin,
    }),
  );

  await app.register(async (visitor) => {
    visitor.decorateRequest('visitor', null);
    visitor.addHook('preHandler', visitorAuth(hub.visitors));
    visitor.addHook('preHandler', (request, reply, done) => {
      done(caps.admitSession(request, reply));
    });
    await visitor.register(assistantRoute(hub));
    await visitor.register(conversationRoutes(hubWithRunner, messageLimit));
    await visitor.register(eventsRoute(hub));
    await visitor.register(answerRoutes(hubWithRunner));
    await visitor.register(uploadRoute(hub));
    await visitor.register(downloadRoute(hub));
    await visitor.register(agUiRoute(hubWithRunner, messageLimit));
  });

  // Turns that were running when this process (or another) stopped are picked up again.
  app.addHook('onReady', async () => {
    await runner.resumeOrphans();
  });
};
