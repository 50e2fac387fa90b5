import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import type { Store } from '../dialect.js';
import { migrateToLatest } from '../migrations.js';
import type { Database } from '../schema.js';
import { createStoreErrors, type StoreErrors } from '../store-errors.js';
import { withStatementCache } from './statement-cache.js';

/** Opens (creating if needed) the SQLite file store in WAL mode and migrates it. */
export async function openSqliteStore(path: string): Promise<Store> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const errors = createStoreErrors();
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
    log: errors.log,
  });
  await migrateToLatest(db as Kysely<unknown>);
  const read: ReadPath = path === ':memory:' ? readThrough(db) : readOnlyConnection(path, errors);
  return {
    db,
    dialect: 'sqlite',
    read: read.read,
    ...(read.dataVersion && { dataVersion: read.dataVersion }),
    observeErrors: errors.observe,
    close: async () => {
      read.close();
      await db.destroy();
    },
  };
}

/** Where `store.read` runs, and the change counter beside it when there is one. */
interface ReadPath extends Pick<Store, 'read' | 'dataVersion'> {
  close(): void;
}

/**
 * The store's reads on a second, read-only connection: run synchronously (better-sqlite3 is), with
 * no wait on Kysely's one-connection mutex and none of its per-query machinery. In WAL mode each
 * statement reads the latest committed state, and never a transaction another flow holds open on
 * the writer connection.
 */
function readOnlyConnection(path: string, errors: StoreErrors): ReadPath {
  const reader = new SQLite(path, { readonly: true, fileMustExist: true });
  reader.pragma('busy_timeout = 5000');
  const statements = withStatementCache(reader);
  // SQLite's own change counter: it moves when another connection — the writer, or any other
  // process on the file — has committed since this connection last looked. A read-only connection
  // never commits, so it moves on every commit there is.
  const version = reader.prepare('pragma data_version').pluck();
  return {
    dataVersion: () => version.get() as number,
    read<R>(query: CompiledQuery<R>): Promise<R[]> {
      try {
        return Promise.resolve(statements.prepare(query.sql).all(query.parameters) as R[]);
      } catch (error) {
        errors.report(error);
        return Promise.reject(error);
      }
    },
    close: () => reader.close(),
  };
}

/** An in-memory database has no file a second connection could open: its reads go through Kysely. */
function readThrough(db: Kysely<Database>): ReadPath {
  return {
    read: <R>(query: CompiledQuery<R>) => db.executeQuery(query).then((result) => [...result.rows]),
    close: () => {},
  };
}
