import { sql } from 'kysely';
import type { Store } from '../../src/store/dialect.js';

/** Every row of every table, for "nothing changed" across a batch of refused requests. */
export async function snapshot(store: Store): Promise<Record<string, unknown[]>> {
  const tables = await store.db.introspection.getTables();
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    const { rows } = await sql`select * from ${sql.table(table.name)}`.execute(store.db);
    out[table.name] = rows;
  }
  return out;
}
