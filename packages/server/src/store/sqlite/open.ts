import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import type { Store } from '../dialect.js';
import { migrateToLatest } from '../migrations.js';
import type { Database } from '../schema.js';
import { withStatementCache } from './statement-cache.js';

/** Opens (creating if needed) the SQLite file store in WAL mode and migrates it. */
export async function openSqliteStore(path: string): Promise<Store> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  await migrateToLatest(db as Kysely<unknown>);
  const read = path === ':memory:' ? readThrough(db) : readOnlyConnection(path);
  return {
    db,
    dialect: 'sqlite',
    read: read.run,
    close: async () => {
      read.close();
      await db.destroy();
    },
  };
}

/**
 * The store's reads on a second, read-only connection: run synchronously (better-sqlite3 is), with
 * no wait on Kysely's one-connection mutex and none of its per-query machinery. In WAL mode each
 * statement reads the latest committed state, and never a transaction another flow holds open on
 * the writer connection.
 */
function readOnlyConnection(path: string) {
  const reader = new SQLite(path, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  const statements = withStatementCache(reader);
  return {
    run<R>(query: CompiledQuery<R>): Promise<R[]> {
      try {
        return Promise.resolve(statements.prepare(query.sql).all(query.parameters) as R[]);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    close: () => reader.close(),
  };
}

/** An in-memory database has no file a second connection could open: its reads go through Kysely. */
function readThrough(db: Kysely<Database>) {
  return {
    run: <R>(query: CompiledQuery<R>) => db.executeQuery(query).then((result) => [...result.rows]),
    close: () => {},
  };
}
