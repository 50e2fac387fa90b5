import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../store/schema.js';
import { createWriteBatch } from '../store/write-batch.js';
import { insertUsageRows } from './usage-insert.js';
import { toUsageRow, type UsageEntry } from './usage-log.js';

/** How long `/mcp` usage rows wait to be written together, by default (see `createUsageBatch`). */
export const USAGE_FLUSH_MS = 50;
/** A batch this large is written at once, whatever the delay. */
export const USAGE_BATCH_MAX_ROWS = 256;

/**
 * Usage rows of `/mcp`, written in batches (`store/write-batch.ts`): a row waits at most `flushMs`
 * (or until 256 rows are waiting) and the batch goes into the usage table in one statement.
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
  const batch = createWriteBatch<Database['usage']>({
    write: (rows) => insertUsageRows(db, rows),
    onError: (error, rows) => log.error({ err: error, rows }, 'usage rows not written'),
    flushMs,
    maxRows: USAGE_BATCH_MAX_ROWS,
  });
  const waiters = new Set<{ match(row: Database['usage']): boolean; resolve(): void }>();

  return {
    record(entry: UsageEntry): void {
      const row = toUsageRow(entry, clock.now());
      batch.add(row);
      for (const waiter of waiters) {
        if (waiter.match(row)) {
          waiters.delete(waiter);
          waiter.resolve();
        }
      }
    },
    /** Writes every pending row now; resolves once all rows recorded so far are written (or logged). */
    flush: batch.flush,
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
