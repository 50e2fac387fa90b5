import { DioscError } from '@diosc/protocol';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import { fastifySSE } from '@fastify/sse';
import type { FastifyPluginAsync } from 'fastify';
import { conversationRoutes } from './conversations/conversation-routes.js';
import { eventsRoute } from './events/events-route.js';
import type { HubOptions } from './hub-context.js';
import { createHubServices } from './hub-context.js';
import type { HubRouteDeps } from './hub-route-deps.js';
import { startDeadlineSweeper } from './interrupts/deadline-sweeper.js';
import { answerRoutes } from './interrupts/interrupt-routes.js';
import { createTurnRunner } from './turns/turn-runner.js';
import { sessionRoutes } from './visitors/session-routes.js';
import { visitorAuth } from './visitors/visitor-auth.js';

const SESSIONS_PER_MINUTE_PER_ADDRESS = 30;

/**
 * The assistant hub at `/api/hub`: visitor sessions, conversations, turns, interrupts for browser
 * tools, Consensus and the event stream. Authenticated by a visitor session token (bearer), never
 * by a cookie; CORS answers only origins some assistant allows.
 */
export const hubPlugin: FastifyPluginAsync<{ options?: HubOptions }> = async (app, { options = {} }) => {
  const hub = createHubServices(app.diosc, app.log, options);
  const runner = createTurnRunner(hub);
  app.diosc.hub = { services: hub, runner };
  const stopSweeper = startDeadlineSweeper(hub, runner, options.sweepIntervalMs ?? 1_000);
  app.addHook('onClose', async () => stopSweeper());

  await app.register(cors, {
    origin: (origin, callback) => {
      if (!origin) return callback(null, false);
      hub.assistants.originAllowed(origin).then(
        (allowed) => callback(null, allowed),
        (error: unknown) => callback(error as Error, false),
      );
    },
    methods: ['GET', 'POST'],
    allowedHeaders: ['authorization', 'content-type', 'last-event-id'],
    credentials: false,
    maxAge: 600,
  });
  await app.register(fastifySSE, { heartbeatInterval: 15_000 });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new DioscError('rate_limited', 'Too many requests; slow down.', { retryAfterMs: context.ttl }),
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const deps: HubRouteDeps = {
    hub,
    runner,
    files: {
      async attachments(fileIds) {
        if (fileIds.length > 0) throw new DioscError('invalid_input', 'File attachments are not enabled.');
        return [];
      },
      belongs: async () => false,
    },
  };

  await app.register(sessionRoutes(hub, { perMinutePerAddress: SESSIONS_PER_MINUTE_PER_ADDRESS }));

  await app.register(async (visitor) => {
    visitor.decorateRequest('visitor', null);
    visitor.addHook('preHandler', visitorAuth(hub.visitors));
    await visitor.register(conversationRoutes(deps));
    await visitor.register(eventsRoute(hub));
    await visitor.register(answerRoutes(deps));
  });

  // Turns that were running when this process (or another) stopped are picked up again.
  app.addHook('onReady', async () => {
    for (const turnId of await hub.turns.orphaned()) runner.schedule(turnId);
  });
};
