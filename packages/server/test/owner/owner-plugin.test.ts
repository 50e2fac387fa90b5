import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { callJson, type OwnerSession, signIn } from './owner-client.js';

/**
 * The owner API's plugin as a whole: a bearer header is refused unread with its own message, every
 * answer is `no-store`, the rate limit applies only to the routes that ask for one, and the
 * assistants live under `/assistants`.
 */
describe.each(DIALECTS)('the owner API plugin ($name)', (dialect) => {
  // Each test builds its own server: the plugin's registration is part of what is tested, and a
  // server built in beforeAll would be registered before a mutation run switches its mutant on.
  let server: TestServer | undefined;
  let owner: OwnerSession;
  async function start(): Promise<TestServer> {
    server = await startTestServer({ dialect });
    owner = await signIn(server.url);
    return server;
  }
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('refuses a bearer header with its own message and no-store, changing nothing', async () => {
    const server = await start();
    const before = await server.store.db.selectFrom('app_connections').selectAll().execute();
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { displayName: 'Agent', grant: [{ collection: 'notes', functions: ['items_list'] }] }],
    ] as const) {
      const reply = await callJson(server.url, '/connections', owner, {
        method,
        body,
        headers: { authorization: 'Bearer anything' },
      });
      expect([reply.status, reply.body], method).toEqual([
        401,
        {
          error: {
            code: 'unauthenticated',
            message: 'The owner API accepts the session cookie only, not a bearer token.',
            retryable: false,
          },
        },
      ]);
      expect(reply.headers.get('cache-control')).toBe('no-store');
    }
    expect(await server.store.db.selectFrom('app_connections').selectAll().execute()).toEqual(before);
  });

  it('rate-limits only the routes that ask for it, and serves the assistants under /assistants', async () => {
    const server = await start();
    const list = await callJson<{ assistants: unknown[] }>(server.url, '/assistants', owner);
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.assistants)).toBe(true);
    expect(list.headers.get('cache-control')).toBe('no-store');
    // A route without a limit of its own carries no rate-limit headers: no global limit applies.
    for (const path of ['/assistants', '/connections', '/session']) {
      const reply = await callJson(server.url, path, owner);
      expect(reply.status, path).toBe(200);
      expect(reply.headers.get('x-ratelimit-limit'), path).toBeNull();
    }
  });
});
