import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ManualClock, manualClock } from '../clock.js';
import { loadConfig, type ServerConfig } from '../config.js';
import { ensureOwner } from '../first-run.js';
import { openConfiguredStore } from '../store/configured-store.js';
import type { Store } from '../store/dialect.js';
import { type TestDialect, testDialects } from './dialects.js';

/** The first-run owner's password in every test store (`owner@localhost`). */
export const OWNER_PASSWORD = 'correct horse battery staple';

/**
 * The dialects the store suites run on: SQLite always, PostgreSQL when the test script started one.
 * Under `CI=true` a missing PostgreSQL is an error, not a quietly smaller run: every suite would
 * lose its PostgreSQL half without even a "skipped" line (`dialects.ts`).
 */
export const DIALECTS: readonly TestDialect[] = testDialects(process.env);

export interface TestStore {
  store: Store;
  dir: string;
  config: ServerConfig;
  accountId: string;
  clock: ManualClock;
  close(): Promise<void>;
}

let postgresCounter = 0;

/**
 * A real store in a fresh temp directory (SQLite file) or a fresh PostgreSQL database, migrated and
 * seeded with the first-run owner (`OWNER_PASSWORD`) and the demo collections, on a manual clock.
 *
 * @example
 * for (const dialect of DIALECTS) {
 *   const test = await openTestStore(dialect);
 *   // … test.store, test.accountId, test.clock.advance(60_000) …
 *   await test.close();
 * }
 */
export async function openTestStore(dialect: TestDialect = { name: 'sqlite' }): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-test-'));
  const loaded = loadConfig(
    { DIOSC_DATA_DIR: dir, DIOSC_OWNER_PASSWORD: OWNER_PASSWORD, DIOSC_LOG_LEVEL: 'silent' },
    dir,
  );
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (dialect.name === 'postgres' && dialect.url) {
    const { createPostgresDatabase } = await import('./postgres-database.js');
    const created = await createPostgresDatabase(
      dialect.url,
      `diosc_test_${process.pid}_${++postgresCounter}`,
    );
    databaseUrl = created.url;
    dropDatabase = created.drop;
  }
  const config: ServerConfig = { ...loaded, databaseUrl };
  const store = await openConfiguredStore(config);
  const clock = manualClock();
  const owner = await ensureOwner(store, config, clock);
  return {
    store,
    dir,
    config,
    accountId: owner.accountId,
    clock,
    async close() {
      await store.close();
      await dropDatabase?.();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
