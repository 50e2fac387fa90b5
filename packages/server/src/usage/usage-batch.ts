import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../store/schema.js';
import { insertUsageRows, toUsageRow, type UsageEntry } from './usage-log.js';

/**
 * Usage rows of `/mcp`, written in batches: the rows of every call that finished in one turn of
 * the event loop go into the usage table in one statement at the end of that turn. Under load
 * this replaces one commit per call (each appending several WAL pages and bringing checkpoints
 * closer) with one commit per turn; with a single client it is one row per turn, as before.
 * A row is written before the client can send its next request, and pending rows are flushed when
 * the server closes. Rows are shaped by `toUsageRow`, like every usage row: identifiers and outcomes only.
 */
export function createUsageBatch(db: Kysely<Database>, clock: Clock, log: FastifyBaseLogger) {
  let rows: Database['usage'][] = [];
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (rows.length === 0) return writing;
    const batch = rows;
    rows = [];
    writing = writing.then(() =>
      insertUsageRows(db, batch).then(
        () => undefined,
        (error: unknown) => log.error({ err: error, rows: batch.length }, 'usage rows not written'),
      ),
    );
    return writing;
  }

  return {
    record(entry: UsageEntry): void {
      if (rows.length === 0) setImmediate(() => void flush());
      rows.push(toUsageRow(entry, clock.now()));
    },
    flush,
  };
}

export type UsageBatch = ReturnType<typeof createUsageBatch>;
