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
 * writes at the end of the event-loop turn instead. A reader that must see a row awaits `flush()`
 * (through `UsageLog.flush`/`list`), never the timer: the test server sets an hour, so a test
 * that reads rows without awaiting it fails every time, not only on a loaded machine. Rows are shaped by `toUsageRow`: identifiers and outcomes only.
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
  const waiters = new Set<{ match(row: Database['usage']): boolean; resolve(): void }>();

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
      const row = toUsageRow(entry, clock.now());
      rows.push(row);
      for (const waiter of waiters) {
        if (waiter.match(row)) {
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
      if (rows.length >= USAGE_BATCH_MAX_ROWS) void flush();
      else if (timer === undefined) {
        // Unreferenced: a pending batch never keeps the process alive; closing the server flushes it.
        timer = flushMs === 0 ? setImmediate(scheduled) : setTimeout(scheduled, flushMs);
        timer.unref();
      }
    },
    /** Writes every pending row now; resolves once all rows recorded so far are written (or logged). */
    flush,
    /**
     * Resolves when a row matching `match` is next recorded (then `flush` writes it): the event a
     * test awaits when a call's row comes after its caller stopped listening (a cancelled call).
     */
    nextRecord(match: (row: Database['usage']) => boolean): Promise<void> {
      return new Promise((resolve) => waiters.add({ match, resolve }));
    },
  };
}

export type UsageBatch = ReturnType<typeof createUsageBatch>;
