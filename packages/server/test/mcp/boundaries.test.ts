import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_BODY_LIMIT } from '../../src/mcp/plugin.js';
import { createConnection, postMcp } from './support.js';

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const writeCall = (requestId: string) => ({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: {
    name: 'item_write',
    arguments: { collection: 'notes', item: 'boundary', requestId, ifNoneMatch: '*', content: { body: 'x' } },
  },
});

describe.each(DIALECTS)('HTTP MCP boundaries ($name)', (dialect) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect, limits: { callsPerMinutePerCaller: 10 } });
    ({ token } = await createConnection(server, [
      { collection: 'notes', functions: ['items_list', 'item_write'] },
    ]));
  });
  afterAll(() => server.close());

  const boundaryItem = () =>
    server.store.db.selectFrom('items').select('id').where('id', '=', 'boundary').executeTakeFirst();

  const expectRefused = async (response: Response, status: number, code: string) => {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toMatchObject({ error: { code } });
    expect(await boundaryItem()).toBeUndefined();
  };

  it('refuses requests without a bearer token, with a challenge', async () => {
    const response = await postMcp(server, writeCall('req-bound-none-1'));
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="diosc"');
    await expectRefused(response, 401, 'unauthenticated');
    await expectRefused(
      await postMcp(server, writeCall('req-bound-basic-1'), { authorization: 'Basic b3duZXI6cHc=' }),
      401,
      'unauthenticated',
    );
  });

  it('refuses unknown and expired tokens with invalid_token', async () => {
    const unknown = await postMcp(server, writeCall('req-bound-bad-1'), {
      authorization: 'Bearer dsc_not-a-real-token',
    });
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer realm="diosc", error="invalid_token"');
    await expectRefused(unknown, 401, 'unauthenticated');

    const expiring = await createConnection(server, [{ collection: 'notes', functions: ['item_write'] }], {
      expiresInMs: 60_000,
    });
    expect((await postMcp(server, listTools, { authorization: `Bearer ${expiring.token}` })).status).toBe(
      200,
    );
    server.clock.advance(60_001);
    const expired = await postMcp(server, writeCall('req-bound-exp-1'), {
      authorization: `Bearer ${expiring.token}`,
    });
    expect(expired.headers.get('www-authenticate')).toBe('Bearer realm="diosc", error="invalid_token"');
    await expectRefused(expired, 401, 'unauthenticated');
  });

  it('never treats the portal session cookie as the owner', async () => {
    const login = await fetch(`${server.url}/api/owner/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: 'owner@localhost', password: 'correct horse battery staple' }),
    });
    expect(login.status).toBe(200);
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toMatch(/diosc_session=/);
    // The cookie is a live owner credential on the owner API…
    expect((await fetch(`${server.url}/api/owner/session`, { headers: { cookie } })).status).toBe(200);
    // …and nothing at all on /mcp, even with the CSRF token and the right Origin alongside.
    const withSession = { cookie, 'x-csrf-token': csrfToken, origin: server.url };
    await expectRefused(
      await postMcp(server, writeCall('req-bound-cookie-1'), withSession),
      401,
      'unauthenticated',
    );
    await expectRefused(
      await postMcp(server, writeCall('req-bound-cookie-2'), { cookie: '__Host-diosc_session=forged' }),
      401,
      'unauthenticated',
    );
  });

  it('refuses a token in the query string, even next to a valid header', async () => {
    for (const query of [`access_token=${token}`, `token=${token}`, `ACCESS_TOKEN=${token}`]) {
      const response = await postMcp(
        server,
        writeCall('req-bound-query-1'),
        { authorization: `Bearer ${token}` },
        `/mcp?${query}`,
      );
      await expectRefused(response, 400, 'invalid_input');
      const alone = await postMcp(server, writeCall('req-bound-query-2'), {}, `/mcp?${query}`);
      await expectRefused(alone, 400, 'invalid_input');
    }
  });

  it('refuses a foreign Origin (DNS rebinding) and accepts the configured one', async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const origin of ['http://evil.example', 'null', `${server.url}.evil.example`]) {
      await expectRefused(
        await postMcp(server, writeCall('req-bound-origin-1'), { ...auth, origin }),
        403,
        'forbidden_origin',
      );
    }
    expect((await postMcp(server, listTools, { ...auth, origin: server.url })).status).toBe(200);
  });

  it('limits the body size and refuses other methods', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const huge = JSON.stringify(writeCall('req-bound-huge-1')).replace(
      '"x"',
      `"${'y'.repeat(MCP_BODY_LIMIT)}"`,
    );
    await expectRefused(await postMcp(server, huge, auth), 413, 'too_large');
    const get = await fetch(`${server.url}/mcp`, { headers: { ...auth, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(await get.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    expect((await fetch(`${server.url}/mcp`)).status).toBe(401);
  });

  it('rate-limits per connection, keyed by connection and not shared with others', async () => {
    const busy = await createConnection(server, [{ collection: 'notes', functions: ['items_list'] }]);
    const other = await createConnection(server, [{ collection: 'notes', functions: ['items_list'] }]);
    const statuses: number[] = [];
    for (let index = 0; index < 21; index++) {
      statuses.push((await postMcp(server, listTools, { authorization: `Bearer ${busy.token}` })).status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    const limited = await postMcp(server, listTools, { authorization: `Bearer ${busy.token}` });
    // The manual clock stands still: the whole minute of the window is still to wait.
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect((await postMcp(server, listTools, { authorization: `Bearer ${other.token}` })).status).toBe(200);
  });
});
