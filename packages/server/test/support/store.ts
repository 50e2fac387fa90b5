import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, manualClock } from '../../src/clock.js';
import { loadConfig, type ServerConfig } from '../../src/config.js';
import { ensureOwner } from '../../src/first-run.js';
import { openStore, type Store } from '../../src/store/dialect.js';

export const OWNER_PASSWORD = 'correct horse battery staple';

/** The dialects the store suites run on: SQLite always, PostgreSQL when the test script started one. */
export const DIALECTS: { name: 'sqlite' | 'postgres'; url?: string }[] = [
  { name: 'sqlite' },
  ...(process.env.DIOSC_TEST_POSTGRES_URL
    ? [{ name: 'postgres' as const, url: process.env.DIOSC_TEST_POSTGRES_URL }]
    : []),
];

export interface TestStore {
  store: Store;
  dir: string;
  config: ServerConfig;
  accountId: string;
  clock: Clock & { advance(ms: number): void };
  close(): Promise<void>;
}

let postgresCounter = 0;

/**
 * A real store in a fresh temp directory (SQLite file) or a fresh PostgreSQL schema-per-database,
 * migrated and seeded with the first-run owner and demo collections.
 */
export async function openTestStore(
  dialect: (typeof DIALECTS)[number] = { name: 'sqlite' },
): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-test-'));
  const config = loadConfig(
    { DIOSC_DATA_DIR: dir, DIOSC_OWNER_PASSWORD: OWNER_PASSWORD, DIOSC_LOG_LEVEL: 'silent' },
    dir,
  );
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (dialect.name === 'postgres' && dialect.url) {
    const { createPostgresDatabase } = await import('./postgres.js');
    const created = await createPostgresDatabase(
      dialect.url,
      `diosc_test_${process.pid}_${++postgresCounter}`,
    );
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
  const store = await openStore({ databaseUrl, sqlitePath: join(dir, 'diosc.sqlite') });
  const clock = manualClock();
  const owner = await ensureOwner(store, config, clock);
  return {
    store,
    dir,
    config: { ...config, databaseUrl },
    accountId: owner.accountId,
    clock,
    async close() {
      await store.close();
      await dropDatabase?.();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
