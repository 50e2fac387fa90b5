import { collectionOf, requestIdOf } from '@diosc/protocol';
import type { Clock } from '../clock.js';
import type { Connections } from '../connections/connections.js';
import { toolOf, type UsageEntry } from '../usage/usage-log.js';
import type { CallerSpec } from './caller-spec.js';

/** `last_used_at` is a coarse "recently active" marker; writing it more often buys nothing. */
const TOUCH_INTERVAL_MS = 60_000;

/** Where usage rows go: the single-row log, or `/mcp`'s per-turn batch. */
export interface UsageSink {
  record(entry: UsageEntry): void | Promise<void>;
}

/** The slice of a logger bookkeeping reports to (Fastify's and pino's loggers have it). */
export interface CallLog {
  error(details: object, message: string): void;
}

export interface BookkeepingDeps {
  usage: UsageSink;
  connections: Pick<Connections, 'touch'>;
  log: CallLog;
  clock: Clock;
}

export interface CallRecord {
  caller: CallerSpec;
  name: string;
  input: unknown;
  /** `ok`, `replayed`, or the refusal's code. */
  outcome: string;
  durationMs: number;
}

/**
 * The bookkeeping of one finished call: its usage row (identifiers and outcome only) and the
 * connection's last-used marker. Neither may change the answer — the call is over, and a committed
 * write stays committed — so a failure here is logged and never thrown.
 */
export async function recordCall(deps: BookkeepingDeps, record: CallRecord): Promise<void> {
  const { caller } = record;
  const connection = caller.channel === 'owner' ? undefined : caller.connection;
  try {
    // `/mcp`'s batch records synchronously: no promise to wait for (and no turn of the loop spent).
    const written = deps.usage.record({
      accountId: caller.accountId,
      connectionId: connection?.id ?? null,
      transport: caller.channel,
      requestId: requestIdOf(record.input) ?? null,
      tool: toolOf(record.name),
      collection: collectionOf(record.input) ?? null,
      outcome: record.outcome,
      durationMs: record.durationMs,
    });
    if (written) await written;
  } catch (error) {
    deps.log.error({ err: error, tool: toolOf(record.name) }, 'usage row not written');
  }
  if (!connection) return;
  if (connection.lastUsedAt !== null && deps.clock.now() - connection.lastUsedAt < TOUCH_INTERVAL_MS) return;
  try {
    await deps.connections.touch(connection.id);
  } catch (error) {
    deps.log.error({ err: error }, 'last-used marker not written');
  }
}
