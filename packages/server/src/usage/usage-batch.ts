import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../store/schema.js';
import { insertUsageRows } from './usage-insert.js';
import { toUsageRow, type UsageEntry } from './usage-log.js';

/** How long `/mcp` usage rows wait to be written together, by default (see `createUsageBatch`). */
export const USAGE_FLUSH_MS = 50;
/** A batch this large is written at once, whatever the delay. */
export const USAGE_BATCH_MAX_ROWS = 256;

/**
 * Usage rows of `/mcp`, written in batches: a row waits at most `flushMs` (or until 256 rows are
 * waiting) and the batch goes into the usage table in one statement. One commit per call cost
 * more than the rest of our own work on a call (each appending WAL pages and slowing every read
 * until the next checkpoint); this is one commit per `flushMs` at any load.
 *
 * What that means (docs/architecture.md, "Usage rows of /mcp"): a row is written within `flushMs`
 * of its call's answer, and pending rows are written when the server closes; a process killed in
 * between loses the rows of that window — never a call's effect, which is committed with its
 * receipt before the answer. A failed insert is logged and never reaches any caller. `flushMs: 0`
 * writes at the end of the event-loop turn instead (the test server uses it, so a test reads the
 * row of the call it just made). Rows are shaped by `toUsageRow`: identifiers and outcomes only.
 */
export function createUsageBatch(
  db: Kysely<Database>,
  clock: Clock,
  log: FastifyBaseLogger,
  flushMs: number = USAGE_FLUSH_MS,
) {
  let rows: Database['usage'][] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;

  function flush(): Promise<void> {
    if (timer !== undefined) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
      timer = undefined;
    }
    if (rows.length === 0) return writing;
    const batch = rows;
    rows = [];
    writing = writing.then(() =>
      insertUsageRows(db, batch).then(
        () => undefined,
        (error: unknown) => {
          log.error({ err: error, rows: batch.length }, 'usage rows not written');
        },
      ),
    );
    return writing;
  }

  const scheduled = () => void flush();
  return {
    record(entry: UsageEntry): void {
      rows.push(toUsageRow(entry, clock.now()));
      if (rows.length >= USAGE_BATCH_MAX_ROWS) void flush();
      else if (timer === undefined) {
        // Unreferenced: a pending batch never keeps the process alive; closing the server flushes it.
        timer = flushMs === 0 ? setImmediate(scheduled) : setTimeout(scheduled, flushMs);
        timer.unref();
      }
    },
    /** Writes every pending row now; resolves once all rows recorded so far are written (or logged). */
    flush,
  };
}

export type UsageBatch = ReturnType<typeof createUsageBatch>;
