import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCollection } from '../../src/account/collections.js';
import { connectClient, createConnection, parseResult, postMcp } from './support.js';

describe.each(DIALECTS)('HTTP MCP exact grants ($name)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
  });
  afterAll(() => server.close());

  const snapshot = () =>
    server.store.db.selectFrom('items').selectAll().orderBy('collection_id').orderBy('id').execute();
  const receiptsOf = (actor: string) =>
    server.store.db.selectFrom('receipts').selectAll().where('actor', '=', actor).execute();

  it('refuses an ungranted collection, an ungranted function and a collection created later; nothing changes', async () => {
    const connection = await createConnection(server, [
      { collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] },
      { collection: 'inbox', functions: ['items_list'] },
    ]);
    const client = await connectClient(server, connection.token);
    const before = await snapshot();
    const callCode = async (name: string, args: Record<string, unknown>) => {
      const parsed = parseResult(await client.callTool({ name, arguments: args }));
      expect(parsed.isError).toBe(true);
      expect(parsed.text).toEqual(parsed.structured);
      return (parsed.structured as { error: { code: string } }).error.code;
    };

    // A collection outside the grant, for reads and writes alike.
    expect(await callCode('items_list', { collection: 'drive' })).toBe('not_granted');
    expect(await callCode('item_read', { collection: 'drive', item: 'roadmap' })).toBe('not_granted');
    // A function granted elsewhere but not on this collection.
    expect(await callCode('item_read', { collection: 'inbox', item: 'welcome' })).toBe('not_granted');
    expect(
      await callCode('item_write', {
        collection: 'inbox',
        item: 'welcome',
        requestId: 'req-grant-inbox-1',
        metadata: { archived: true },
      }),
    ).toBe('not_granted');
    // A function granted nowhere is not even a tool of this connection.
    await expect(
      client.callTool({
        name: 'item_delete',
        arguments: { collection: 'notes', item: 'groceries', requestId: 'req-grant-del-1', ifMatch: '1' },
      }),
    ).rejects.toThrow(/Unknown tool/);

    // A collection created after the grant is invisible and refused.
    await createCollection(
      server.store.db,
      server.accountId,
      { id: 'later', kind: 'storage', title: 'Later' },
      0,
    );
    const listed = parseResult(await client.callTool({ name: 'collections_list', arguments: {} }));
    expect((listed.structured as { collections: { id: string; functions: string[] }[] }).collections).toEqual(
      [
        expect.objectContaining({ id: 'inbox', functions: ['items_list'] }),
        expect.objectContaining({ id: 'notes', functions: ['items_list', 'item_read', 'item_write'] }),
      ],
    );
    expect(await callCode('items_list', { collection: 'later' })).toBe('not_granted');
    expect(
      await callCode('item_write', {
        collection: 'later',
        item: 'x',
        requestId: 'req-grant-later-1',
        ifNoneMatch: '*',
        content: { body: 'nope' },
      }),
    ).toBe('not_granted');

    expect(await snapshot()).toEqual(before);
    expect(await receiptsOf(connection.actor)).toEqual([]);
    await client.close();
  });

  it('applies a grant change and a revocation on the very next call', async () => {
    const connection = await createConnection(server, [{ collection: 'notes', functions: ['items_list'] }]);
    const client = await connectClient(server, connection.token);
    const first = parseResult(
      await client.callTool({ name: 'items_list', arguments: { collection: 'notes' } }),
    );
    expect(first.isError).toBe(false);

    await server.app.diosc.connections.changeGrant(server.accountId, connection.id, [
      { collection: 'inbox', functions: ['items_list'] },
    ]);
    const narrowed = parseResult(
      await client.callTool({ name: 'items_list', arguments: { collection: 'notes' } }),
    );
    expect(narrowed).toMatchObject({ isError: true, structured: { error: { code: 'not_granted' } } });
    const widened = parseResult(
      await client.callTool({ name: 'items_list', arguments: { collection: 'inbox' } }),
    );
    expect(widened.isError).toBe(false);

    await server.app.diosc.connections.revoke(server.accountId, connection.id);
    await expect(
      client.callTool({ name: 'items_list', arguments: { collection: 'inbox' } }),
    ).rejects.toThrow();
    const raw = await postMcp(
      server,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'items_list', arguments: { collection: 'inbox' } },
      },
      { authorization: `Bearer ${connection.token}` },
    );
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe('Bearer realm="diosc", error="invalid_token"');
    expect(await raw.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    await client.close().catch(() => {});
  });

  it('stops the old token at once when the token is rotated', async () => {
    const connection = await createConnection(server, [{ collection: 'notes', functions: ['items_list'] }]);
    const { token } = await server.app.diosc.connections.rotate(server.accountId, connection.id);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect((await postMcp(server, call, { authorization: `Bearer ${connection.token}` })).status).toBe(401);
    expect((await postMcp(server, call, { authorization: `Bearer ${token}` })).status).toBe(200);
  });
});
