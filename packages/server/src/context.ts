import type { Accounts } from './account/accounts.js';
import type { AccountCore } from './account/core.js';
import type { AuditLog } from './audit/audit-log.js';
import type { AuditRecorder } from './audit/audit-recorder.js';
import type { Sessions } from './auth/sessions.js';
import type { Clock } from './clock.js';
import type { ServerConfig } from './config.js';
import type { Connections } from './connections/connections.js';
import type { HttpLimits } from './http/server-limits.js';
import type { Hub } from './hub/hub.js';
import type { Telemetry } from './observability/telemetry.js';
import type { Tracing } from './observability/tracing.js';
import type { Store } from './store/dialect.js';
import type { UsageLog } from './usage/usage-log.js';

/** Per-app state, decorated onto the Fastify instance as `app.diosc`; never a module global. */
export interface DioscContext {
  config: ServerConfig;
  store: Store;
  core: AccountCore;
  clock: Clock;
  accounts: Accounts;
  sessions: Sessions;
  connections: Connections;
  usage: UsageLog;
  /** The HTTP limits the server was built with (the error reply reads its unread-body drain). */
  http: HttpLimits;
  /** Metrics the hub, `/mcp` and the store report to (a no-op unless metrics are on). */
  telemetry: Telemetry;
  /** Spans of turns and `/mcp` calls (a no-op unless traces are on). */
  tracing: Tracing;
  /** Where every decision writes its audit record (in the decision's own transaction). */
  audit: AuditRecorder;
  /** The audit's reads and pruning. */
  auditLog: AuditLog;
  /** The assistant hub, once its plugin is registered. */
  hub?: Hub;
}

declare module 'fastify' {
  interface FastifyInstance {
    diosc: DioscContext;
    /** The separate `/metrics` listener, when `metricsPort` is set (observability/metrics-endpoint.ts). */
    metricsServer?: import('node:http').Server;
  }
}
