import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, type OwnerSession, signIn } from './owner-client.js';

/** Credentials never cross entries: no bearer token on the owner API, no cookie on /mcp. */
describe.each(DIALECTS)('credential separation ($name)', (dialect) => {
  let server: TestServer;
  let owner: OwnerSession;
  let token: string;
  let connectionId: string;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    owner = await signIn(server.url);
    const created = await callJson<{ token: string; connection: { id: string } }>(
      server.url,
      '/connections',
      owner,
      {
        body: { displayName: 'Agent', grant: [{ collection: 'notes', functions: ['items_list'] }] },
      },
    );
    token = created.body.token;
    connectionId = created.body.connection.id;
  });
  afterAll(() => server.close());

  const rows = () => server.store.db.selectFrom('app_connections').selectAll().orderBy('id').execute();

  it('refuses a bearer token on the owner API with 401, even beside a valid cookie and CSRF token', async () => {
    const before = await rows();
    const lastUsed = before.find((row) => row.id === connectionId)!.last_used_at;
    for (const session of [null, owner]) {
      const read = await callJson(server.url, '/connections', session, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(read.status).toBe(401);
      expect(read.body).toMatchObject({ error: { code: 'unauthenticated' } });
      const write = await callJson(server.url, `/connections/${connectionId}`, session, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(write.status).toBe(401);
      expect(write.body).toMatchObject({ error: { code: 'unauthenticated' } });
    }
    const after = await rows();
    expect(after).toEqual(before);
    // Never looked up: the connection was not even touched.
    expect(after.find((row) => row.id === connectionId)!.last_used_at).toBe(lastUsed);
  });

  it('refuses the owner cookie on /mcp with 401 and changes nothing', async () => {
    const before = await server.store.db.selectFrom('items').selectAll().orderBy('id').execute();
    await server.app.diosc.usage.flush(); // /mcp's rows are batched: written before they are compared
    const usageBefore = await server.store.db.selectFrom('usage').selectAll().execute();
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        cookie: owner.cookie,
        origin: server.url,
        'x-csrf-token': owner.csrfToken,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'item_delete',
          arguments: { collection: 'notes', item: 'groceries', requestId: 'cookie-on-mcp-1', ifMatch: '1' },
        },
      }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    expect(await server.store.db.selectFrom('items').selectAll().orderBy('id').execute()).toEqual(before);
    await server.app.diosc.usage.flush();
    expect(await server.store.db.selectFrom('usage').selectAll().execute()).toEqual(usageBefore);
  });
});
