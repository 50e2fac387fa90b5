import { sql } from 'kysely';
import type { Store } from '../../src/store/dialect.js';

/**
 * Request-rate counters (PostgreSQL's shared `@fastify/rate-limit` store) count every request,
 * refused or not — that is their job — so they are not state a refusal may leave unchanged.
 */
const COUNTERS = new Set(['rate_windows']);

/** Every row of every table, for "nothing changed" across a batch of refused requests. */
export async function snapshot(store: Store): Promise<Record<string, unknown[]>> {
  const tables = await store.db.introspection.getTables();
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    if (COUNTERS.has(table.name)) continue;
    const { rows } = await sql`select * from ${sql.table(table.name)}`.execute(store.db);
    out[table.name] = rows;
  }
  return out;
}
