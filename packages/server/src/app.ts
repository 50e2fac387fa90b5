import { HUB_API_PREFIX } from '@diosc/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { createAccounts } from './account/accounts.js';
import type { CallHold } from './account/call-hold.js';
import { createAccountCore } from './account/core.js';
import type { AccountLimits } from './account/limits.js';
import { createAuditLog } from './audit/audit-log.js';
import { startAuditPruner } from './audit/audit-pruner.js';
import { createAuditRecorder } from './audit/audit-recorder.js';
import { createSessions } from './auth/sessions.js';
import { type Clock, systemClock } from './clock.js';
import type { ServerConfig } from './config.js';
import { createConnections } from './connections/connections.js';
import type { DioscContext } from './context.js';
import { installConnectionCap, refuseWhileClosing } from './http/connection-cap.js';
import { installErrorHandling, sendError } from './http/errors.js';
import { installJsonBody } from './http/json-body.js';
import { installProbes } from './http/probes.js';
import { installRequestGuards } from './http/request-guards.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits, httpServerOptions } from './http/server-limits.js';
import type { HubOptions } from './hub/hub-context.js';
import { hubPlugin } from './hub/plugin.js';
import { kitAssetsPlugin } from './kit-assets/plugin.js';
import { mcpPlugin } from './mcp/plugin.js';
import { createMetrics } from './observability/metrics.js';
import { installMetricsEndpoint, metricsEnabled } from './observability/metrics-endpoint.js';
import { otlpSpanSender } from './observability/otlp-sender.js';
import { createSpanTracing, type SpanTracingOptions } from './observability/span-tracing.js';
import { NO_TELEMETRY } from './observability/telemetry.js';
import { NO_TRACING, type Tracing } from './observability/tracing.js';
import { waitingCountsOf } from './observability/waiting-counts.js';
import { ownerPlugin } from './owner/plugin.js';
import { portalShellPlugin } from './portal-shell/plugin.js';
import type { Store } from './store/dialect.js';
import { createUsageBatch } from './usage/usage-batch.js';
import { createUsageLog } from './usage/usage-log.js';

// Re-exported so every declaration consumer of `buildApp` also gets the `app.diosc` augmentation.
export type { DioscContext };

export interface BuildAppOptions {
  config: ServerConfig;
  store: Store;
  clock?: Clock;
  limits?: Partial<AccountLimits>;
  /** Pino options, or false for silence in tests. */
  logger?: boolean | Record<string, unknown>;
  /** The assistant hub's options (scripted models for tests and demos, sweep interval, …). */
  hub?: HubOptions;
  /** Timeouts and the connection cap over `DEFAULT_HTTP_LIMITS` (tests shorten them). */
  http?: Partial<HttpLimits>;
  /** Test seam: holds calls in flight at a known point (see `CallHold`); production passes none. */
  holdCall?: CallHold;
  /**
   * Test seam: the store the account core runs on, when a test needs it apart from the app's — a
   * second connection whose statements it can slow down (`startTestServer({ coreStorePlugins })`).
   * Production passes none and the core shares `store`.
   */
  coreStore?: Store;
  /** How long `/mcp` usage rows wait to be written together (default `USAGE_FLUSH_MS`; see usage-batch.ts). */
  usageFlushMs?: number;
  /** Test seam: spans go to these exporters (an in-memory one), whatever the configuration says. */
  tracing?: SpanTracingOptions;
}

function tracingOf(options: BuildAppOptions): Tracing {
  if (options.tracing) return createSpanTracing(options.tracing);
  const url = options.config.tracesOtlpUrl;
  return url
    ? createSpanTracing({
        spanSenders: [otlpSpanSender(url)],
        sampleRatio: options.config.tracesSampleRatio,
      })
    : NO_TRACING;
}

/** Log lines never carry credentials: no headers, and URLs without their query string. */
const serializers = {
  req(request: { method: string; url: string; id: string }) {
    return { id: request.id, method: request.method, path: request.url.split('?')[0] };
  },
};

/** Builds the whole server as one Fastify instance with each feature as an encapsulated plugin. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...options.http };
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: options.config.logLevel, serializers, ...(options.logger as object) },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    ...httpServerOptions(limits),
    // A malformed percent-encoding or an over-long path segment, found while routing.
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
  });
  const metrics = metricsEnabled(options.config)
    ? createMetrics(waitingCountsOf(options.store.db))
    : undefined;
  const telemetry = metrics?.telemetry ?? NO_TELEMETRY;
  const audit = createAuditRecorder(clock, options.config.instanceId);
  const context: DioscContext = {
    config: options.config,
    store: options.store,
    clock,
    core: createAccountCore({
      store: options.coreStore ?? options.store,
      clock,
      limits: options.limits,
      hold: options.holdCall,
    }),
    accounts: createAccounts(options.store.db),
    sessions: createSessions(options.store.db, clock),
    connections: createConnections(options.store, clock, audit),
    usage: createUsageLog(
      options.store.db,
      clock,
      createUsageBatch(options.store.db, clock, app.log, options.usageFlushMs),
    ),
    http: limits,
    telemetry,
    tracing: tracingOf(options),
    audit,
    auditLog: createAuditLog(options.store.db),
  };
  app.decorate('diosc', context);
  installConnectionCap(app, limits.maxConnections, limits.maxConnectionsPerAddress);
  refuseWhileClosing(app);
  installErrorHandling(app);
  installRequestGuards(app, options.config);
  installJsonBody(app);

  installProbes(app, options.store);
  const stopAuditPruner = startAuditPruner({
    log: context.auditLog,
    clock,
    retentionDays: options.config.auditRetentionDays,
    onError: (error) => app.log.error({ err: error }, 'audit prune failed'),
  });
  app.addHook('onClose', async () => stopAuditPruner());
  // Spans still open end here (marked abandoned), and what the exporter buffered is sent.
  app.addHook('onClose', () => context.tracing.shutdown());
  if (metrics) {
    await installMetricsEndpoint(app, metrics, options.config);
    const unobserve = options.store.observeErrors?.(telemetry.storeError);
    app.addHook('onClose', async () => unobserve?.());
  }

  await app.register(mcpPlugin);
  await app.register(ownerPlugin, { prefix: '/api/owner' });
  await app.register(hubPlugin, { prefix: HUB_API_PREFIX, options: options.hub });
  await app.register(kitAssetsPlugin);
  await app.register(portalShellPlugin);

  return app;
}
