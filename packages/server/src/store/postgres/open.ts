import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Store } from '../dialect.js';
import { migrateToLatest } from '../migrations.js';
import type { Database } from '../schema.js';
import { createStoreErrors } from '../store-errors.js';

/**
 * The type parsers of this store's pool only (pg's global parsers stay as they are, so another pg
 * user in the same process is unaffected): epoch-millisecond columns are BIGINT; they fit a JS
 * number, so read them as one.
 */
function storeTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
  return types;
}

/** Opens the PostgreSQL store at `url` and migrates it. */
export async function openPostgresStore(url: string): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: storeTypes() });
  // An idle pooled connection that the server drops (restart, failover, admin kill) emits `error` on
  // the pool; unhandled, that would crash the process. The pool discards the client and the next
  // query opens a new one, so there is nothing else to do here.
  pool.on('error', () => {});
  const errors = createStoreErrors();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: errors.log });
  await migrateToLatest(db as Kysely<unknown>);
  return {
    db,
    dialect: 'postgres',
    // A compiled read through the pool: no builder work per call; each statement sees what is committed.
    read: (query) => db.executeQuery(query).then((result) => [...result.rows]),
    observeErrors: errors.observe,
    close: () => db.destroy(),
  };
}
