import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
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
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
