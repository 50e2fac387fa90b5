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
  // An idle pooled connection that the server drops (restart, failover, admin kill) emits `error` on
  // the pool; unhandled, that would crash the process. The pool discards the client and the next
  // query opens a new one, so there is nothing else to do here.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await migrateToLatest(db as Kysely<unknown>);
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
