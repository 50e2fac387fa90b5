import { type CallChannel, FUNCTION_NAMES, type UsageView } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../store/schema.js';
import { timeOrderedId } from './time-ordered-id.js';
import type { UsageBatch } from './usage-batch.js';
import { insertUsageRows } from './usage-insert.js';

/** One tool call as recorded: the owner API's usage view, less its id and time, plus the account. */
export type UsageEntry = Omit<UsageView, 'id' | 'at'> & { accountId: string };

export type { UsageView };

/**
 * The usage record. It holds identifiers and outcomes only: never arguments, item content or any
 * credential, so it can be shown and exported freely. `/mcp` records into `batch` (rows written
 * together, see usage-batch.ts); every other channel writes its row at once. A reader never sees
 * less than what was answered: `list` writes the pending batch first, and `flush` is the one seam
 * anything else that reads the table (a test, an export) awaits — never the batch's timer.
 */
export function createUsageLog(db: Kysely<Database>, clock: Clock, batch: UsageBatch) {
  return {
    async record(entry: UsageEntry): Promise<void> {
      await insertUsageRows(db, [toUsageRow(entry, clock.now())]);
    },

    /** `/mcp`'s sink: records synchronously, written within the batch's delay. */
    batch,

    /** Resolves once every row recorded so far, batched ones included, is written (or logged). */
    flush(): Promise<void> {
      return batch.flush();
    },

    async list(
      accountId: string,
      filter: { transport?: CallChannel; limit?: number } = {},
    ): Promise<UsageView[]> {
      let query = db
        .selectFrom('usage')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(Math.min(filter.limit ?? 50, 200));
      if (filter.transport) query = query.where('transport', '=', filter.transport);
      return (await query.execute()).map((row) => ({
        id: row.id,
        connectionId: row.connection_id,
        transport: row.transport as CallChannel,
        requestId: row.request_id,
        tool: row.tool,
        collection: row.collection_id,
        outcome: row.outcome,
        durationMs: row.duration_ms,
        at: new Date(row.created_at).toISOString(),
      }));
    },
  };
}

export type UsageLog = ReturnType<typeof createUsageLog>;

/** The stored form of one entry; the only place a usage row is shaped. */
export function toUsageRow(entry: UsageEntry, now: number): Database['usage'] {
  return {
    id: timeOrderedId(now),
    account_id: entry.accountId,
    connection_id: entry.connectionId,
    transport: entry.transport,
    request_id: entry.requestId,
    tool: entry.tool,
    collection_id: entry.collection,
    outcome: entry.outcome,
    duration_ms: Math.round(entry.durationMs),
    created_at: now,
  };
}

/** The tool name as recorded: a catalog name, or `(unknown)` for anything else a caller sent. */
export function toolOf(name: string): string {
  return (FUNCTION_NAMES as readonly string[]).includes(name) ? name : '(unknown)';
}
