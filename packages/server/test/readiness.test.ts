import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../src/store/migrations.js';
import { type PrivatePostgres, startPrivatePostgres } from './store/private-postgres.js';

async function probe(server: TestServer, path: '/readyz' | '/healthz') {
  const response = await fetch(`${server.url}${path}`);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return { status: response.status, body: await response.json() };
}

const NOT_MIGRATED = {
  status: 503,
  body: {
    error: {
      code: 'not_ready',
      message: 'The store is not migrated to this version of the server.',
      retryable: true,
    },
  },
};

describe.each(DIALECTS)('readiness ($name)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  it('is ready over a migrated store', async () => {
    expect(await probe(server, '/readyz')).toEqual({
      status: 200,
      body: { status: 'ready', store: dialect.name },
    });
  });

  it('answers 503 not_ready while a migration of this build is not applied, and recovers by itself', async () => {
    const last = MIGRATION_NAMES.at(-1) as string;
    const { rows } = await sql<{
      name: string;
      timestamp: string;
    }>`select name, timestamp from kysely_migration where name = ${last}`.execute(server.store.db);
    const row = rows[0] as { name: string; timestamp: string };
    await sql`delete from kysely_migration where name = ${last}`.execute(server.store.db);
    expect(await probe(server, '/readyz')).toEqual(NOT_MIGRATED);
    // Liveness does not follow: restarting the process would not migrate the store.
    expect((await probe(server, '/healthz')).status).toBe(200);
    await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(
      server.store.db,
    );
    expect((await probe(server, '/readyz')).status).toBe(200);
  });
});

// Stopping a PostgreSQL server is only possible on one of the test's own: the shared one
// (DIOSC_TEST_POSTGRES_URL) serves other suites at the same time. Present wherever PostgreSQL is.
if (DIALECTS.some((dialect) => dialect.name === 'postgres')) {
  describe('readiness over a PostgreSQL server that stops and starts again', () => {
    let postgres: PrivatePostgres;
    let server: TestServer;
    beforeAll(async () => {
      postgres = await startPrivatePostgres();
      server = await startTestServer({ dialect: { name: 'postgres', url: postgres.url } });
    });
    afterAll(async () => {
      await server?.close();
      postgres?.dispose();
    });

    it('answers 503 while the server is down and 200 again once it is back, without a restart', async () => {
      expect((await probe(server, '/readyz')).status).toBe(200);
      postgres.stop();
      expect(await probe(server, '/readyz')).toEqual({
        status: 503,
        body: { error: { code: 'not_ready', message: 'The store cannot be reached.', retryable: true } },
      });
      expect(await probe(server, '/healthz')).toEqual({
        status: 200,
        body: { status: 'ok', store: 'postgres' },
      });
      postgres.start();
      expect(await probe(server, '/readyz')).toEqual({
        status: 200,
        body: { status: 'ready', store: 'postgres' },
      });
    });
  });
}
