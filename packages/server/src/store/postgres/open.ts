import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Store } from '../dialect.js';
import { migrateToLatest } from '../migrations.js';
import type { Database } from '../schema.js';

// Epoch-millisecond columns are BIGINT; they fit a JS number, so read them as one.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Opens the PostgreSQL store at `url` and migrates it. */
export async function openPostgresStore(url: string): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await migrateToLatest(db as Kysely<unknown>);
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
