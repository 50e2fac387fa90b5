import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { testDialects } from '../src/testing/dialects.js';

/** `@diosc/server/testing` is the door the hub's and the kit's suites extend: it must take their parts. */
describe.each(DIALECTS)('startTestServer ($name)', (dialect) => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  it('registers extra plugins before listening and applies configuration over the test defaults', async () => {
    server = await startTestServer({
      dialect,
      config: { mcpAllowedOrigins: ['https://agent.test'] },
      configure: async (app) => {
        await app.register(
          async (plugin) => {
            plugin.get('/ping', async () => ({ origin: plugin.diosc.config.publicOrigin }));
          },
          { prefix: '/api/extra' },
        );
      },
    });
    const response = await fetch(`${server.url}/api/extra/ping`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ origin: server.url });
    expect(server.app.diosc.config.mcpAllowedOrigins).toEqual(['https://agent.test']);
    // The defaults still hold: the server's own origin, the seeded owner, the manual clock.
    expect(server.config.publicOrigin).toBe(server.url);
    const before = server.app.diosc.clock.now();
    server.clock.advance(60_000);
    expect(server.app.diosc.clock.now()).toBe(before + 60_000);
    expect(await server.app.diosc.accounts.findById(server.accountId)).toMatchObject({
      email: 'owner@localhost',
    });
  });
});

/** A dialect suite never quietly loses PostgreSQL: under CI the missing URL is an error. */
describe('testDialects', () => {
  it('runs on PostgreSQL when the test server is named, on SQLite only outside CI otherwise', () => {
    const url = 'postgres://postgres@127.0.0.1:5432/postgres';
    expect(testDialects({ DIOSC_TEST_POSTGRES_URL: url })).toEqual([
      { name: 'sqlite' },
      { name: 'postgres', url },
    ]);
    expect(testDialects({ DIOSC_TEST_POSTGRES_URL: url, CI: 'true', VITEST: 'true' })).toHaveLength(2);
    expect(testDialects({})).toEqual([{ name: 'sqlite' }]);
    expect(testDialects({ CI: 'false', VITEST: 'true' })).toEqual([{ name: 'sqlite' }]);
    // Outside a test run (a benchmark under CI) SQLite alone is no silent loss.
    expect(testDialects({ CI: 'true' })).toEqual([{ name: 'sqlite' }]);
  });

  it('refuses to drop PostgreSQL under CI', () => {
    for (const CI of ['true', '1', 'yes']) {
      expect(() => testDialects({ CI, VITEST: 'true' })).toThrow(/DIOSC_TEST_POSTGRES_URL is not/);
    }
  });
});
