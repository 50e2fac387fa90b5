import type { Store } from '../../../src/store/dialect.js';

const TABLES = [
  'hub_visitor_sessions',
  'hub_conversations',
  'hub_messages',
  'hub_turns',
  'hub_tool_calls',
  'hub_events',
  'hub_files',
  'hub_file_chunks',
  'items',
  'receipts',
] as const;

/** Row counts of the hub's tables (files too, and the account's items and receipts), for "nothing changed". */
export async function rowCounts(store: Store): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await store.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    counts[table] = Number(row?.n ?? 0);
  }
  return counts;
}
