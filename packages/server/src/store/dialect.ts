import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

/** One store: a Kysely instance over one dialect. The account core never knows which. */
export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: DialectName;
  /**
   * Runs one compiled read on its own, outside any transaction, seeing committed data only: what
   * the hot reads of every call use (see `prepareRead`). SQLite runs it on a read-only second
   * connection (WAL readers never wait for the writer, and never see another flow's open
   * transaction); PostgreSQL through the pool like any query.
   */
  read<R>(query: CompiledQuery<R>): Promise<R[]>;
  /**
   * A number that changes whenever any connection (in this process or another) commits to the
   * store, cheap enough to read on every call; absent where the dialect has none (PostgreSQL, an
   * in-memory SQLite). What lets `prepareVersionedRead` reuse a read until the next commit.
   */
  readonly dataVersion?: () => number;
  /**
   * Calls `listener` on every failed statement but an expected unique-key race (store-errors.ts);
   * returns the unsubscribe. Absent on a store built by hand (tests).
   */
  observeErrors?(listener: () => void): () => void;
  close(): Promise<void>;
}

export interface StoreConfig {
  /** `postgres://…` selects PostgreSQL; otherwise SQLite at `sqlitePath`. */
  databaseUrl?: string;
  sqlitePath: string;
}

export async function openStore(config: StoreConfig): Promise<Store> {
  if (config.databaseUrl && /^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    const { openPostgresStore } = await import('./postgres/open.js');
    return openPostgresStore(config.databaseUrl);
  }
  const { openSqliteStore } = await import('./sqlite/open.js');
  return openSqliteStore(config.sqlitePath);
}
