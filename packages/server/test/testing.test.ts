import { startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';

/** `@diosc/server/testing` is the door the hub's and the kit's suites extend: it must take their parts. */
describe('startTestServer', () => {
  let server: TestServer | undefined;
  afterEach(() => server?.close());

  it('registers extra plugins before listening and applies configuration over the test defaults', async () => {
    server = await startTestServer({
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
