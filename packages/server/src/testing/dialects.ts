import type { DialectName } from '../store/dialect.js';

export interface TestDialect {
  name: DialectName;
  /** The admin URL of the test PostgreSQL server (PostgreSQL only). */
  url?: string;
}

/** True when the environment says this is a CI run (`CI=true`, or any value but `false`/`0`). */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * SQLite always, PostgreSQL when `DIOSC_TEST_POSTGRES_URL` names the test server. In a CI test run
 * (Vitest sets `VITEST`) a missing URL throws, so every file that runs on the dialects fails instead
 * of passing on one; the benchmarks, which use the same door, measure SQLite unless told otherwise.
 */
export function testDialects(env: NodeJS.ProcessEnv): readonly TestDialect[] {
  const url = env.DIOSC_TEST_POSTGRES_URL;
  if (!url && isCi(env) && env.VITEST) {
    throw new Error(
      'CI is set but DIOSC_TEST_POSTGRES_URL is not: the dialect suites would run on SQLite only. ' +
        'Run them through `npm test` (which starts PostgreSQL) or set the URL.',
    );
  }
  return [{ name: 'sqlite' }, ...(url ? [{ name: 'postgres' as const, url }] : [])];
}
