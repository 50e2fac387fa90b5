import { catalogDescriptors, descriptorsFor } from '@diosc/protocol';
import { isValidOutput } from '@diosc/protocol/validators';
import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exposedFunctions } from '../../src/connections/grant.js';
import { ALL_NOTES, connectClient, createConnection, parseResult, postMcp } from './support.js';

const MCP_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;
const pick = (value: Record<string, unknown>) =>
  Object.fromEntries(MCP_FIELDS.map((key) => [key, value[key]]));

describe.each(DIALECTS)('HTTP MCP tools ($name)', (dialect) => {
  let server: TestServer;
  let client: Client;
  let token: string;
  const grant = [
    ALL_NOTES,
    { collection: 'inbox', functions: ['items_list', 'item_read', 'item_write'] as const },
    { collection: 'drive', functions: ['items_list', 'item_read'] as const },
  ].map((entry) => ({ ...entry, functions: [...entry.functions] }));

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    ({ token } = await createConnection(server, grant));
    client = await connectClient(server, token);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const parsed = parseResult(result);
    // The text block always carries exactly the structured content.
    expect(parsed.text).toEqual(parsed.structured);
    return parsed;
  };

  const itemRow = (collection: string, id: string) =>
    server.store.db
      .selectFrom('items')
      .selectAll()
      .where('account_id', '=', server.accountId)
      .where('collection_id', '=', collection)
      .where('id', '=', id)
      .executeTakeFirst();

  it('lists exactly the catalog tools the grant exposes, as the catalog wrote them (schema parity)', async () => {
    const listed = await client.listTools();
    const expected = catalogDescriptors().map((descriptor) => pick({ ...descriptor }));
    expect(listed.tools.map((tool) => pick(tool as Record<string, unknown>))).toEqual(expected);

    // Byte parity on the wire: each listed tool serializes to exactly the catalog descriptor's JSON.
    const raw = await postMcp(
      server,
      { jsonrpc: '2.0', id: 7, method: 'tools/list' },
      { authorization: `Bearer ${token}` },
    );
    expect(raw.status).toBe(200);
    expect(raw.headers.get('cache-control')).toBe('no-store');
    const tools = (JSON.parse(await raw.text()) as { result: { tools: Record<string, unknown>[] } }).result
      .tools;
    expect(tools.map((tool) => JSON.stringify(tool))).toEqual(
      catalogDescriptors().map((descriptor) => JSON.stringify(pick({ ...descriptor }))),
    );
  });

  it('lists only the functions granted on at least one collection', async () => {
    const narrowGrant = [{ collection: 'inbox', functions: ['items_list' as const] }];
    const narrow = await createConnection(server, narrowGrant);
    const expected = descriptorsFor(exposedFunctions(narrowGrant)).map((descriptor) =>
      pick({ ...descriptor }),
    );
    expect(expected.map((tool) => tool.name)).toEqual(['collections_list', 'items_list']);

    const narrowClient = await connectClient(server, narrow.token);
    const listed = await narrowClient.listTools();
    expect(listed.tools.map((tool) => pick(tool as Record<string, unknown>))).toEqual(expected);
    await narrowClient.close();

    const raw = await postMcp(
      server,
      { jsonrpc: '2.0', id: 8, method: 'tools/list' },
      { authorization: `Bearer ${narrow.token}` },
    );
    const tools = (JSON.parse(await raw.text()) as { result: { tools: unknown[] } }).result.tools;
    expect(tools.map((tool) => JSON.stringify(tool))).toEqual(expected.map((tool) => JSON.stringify(tool)));
  });

  it('calls collections_list, filtered to the grant', async () => {
    const { structured, isError } = await call('collections_list', {});
    expect(isError).toBe(false);
    expect(isValidOutput('collections_list', structured)).toBe(true);
    expect(structured).toMatchObject({
      collections: [
        { id: 'drive', functions: ['items_list', 'item_read'] },
        { id: 'inbox', functions: ['items_list', 'item_read', 'item_write'] },
        { id: 'notes', functions: ['items_list', 'item_read', 'item_write', 'item_delete'] },
      ],
      nextCursor: null,
    });
  });

  it('calls items_list and item_read', async () => {
    const list = await call('items_list', { collection: 'notes', limit: 2 });
    expect(isValidOutput('items_list', list.structured)).toBe(true);
    const page = list.structured as { items: { id: string }[]; nextCursor: string | null };
    expect(page.items).toHaveLength(2);
    expect(page.nextCursor).toEqual(expect.any(String));
    const read = await call('item_read', { collection: 'notes', item: 'groceries' });
    expect(isValidOutput('item_read', read.structured)).toBe(true);
    expect(read.structured).toMatchObject({
      collection: 'notes',
      item: { id: 'groceries', content: expect.stringContaining('oat milk') },
    });
  });

  it('calls item_write (storage create, inbox metadata) and item_delete, with replay and collision', async () => {
    const args = {
      collection: 'notes',
      item: 'todo',
      requestId: 'req-tools-create-1',
      ifNoneMatch: '*',
      content: { body: 'ship the MCP endpoint' },
    };
    const created = await call('item_write', args);
    expect(created.isError).toBe(false);
    expect(isValidOutput('item_write', created.structured)).toBe(true);
    expect(created.structured).toMatchObject({ created: true, item: { id: 'todo', version: '1' } });

    // Replay: the same request ID and input returns the stored result and changes nothing.
    const replayed = await call('item_write', args);
    expect(replayed.structured).toEqual(created.structured);
    expect((await itemRow('notes', 'todo'))?.version).toBe(1);

    // Collision: the same request ID with other input is refused; the item keeps its content.
    const collision = await call('item_write', { ...args, content: { body: 'something else' } });
    expect(collision.isError).toBe(true);
    expect(collision.structured).toMatchObject({ error: { code: 'request_id_collision' } });
    expect((await itemRow('notes', 'todo'))?.content).toBe('ship the MCP endpoint');

    const inbox = await call('item_write', {
      collection: 'inbox',
      item: 'welcome',
      requestId: 'req-tools-inbox-1',
      metadata: { read: true, labels: ['done'] },
    });
    expect(inbox.isError).toBe(false);
    expect(JSON.parse((await itemRow('inbox', 'welcome'))?.metadata ?? '{}')).toMatchObject({
      read: true,
      labels: ['done'],
    });

    const deleted = await call('item_delete', {
      collection: 'notes',
      item: 'todo',
      requestId: 'req-tools-delete-1',
      ifMatch: '1',
    });
    expect(isValidOutput('item_delete', deleted.structured)).toBe(true);
    expect(deleted.structured).toEqual({ collection: 'notes', item: 'todo', deleted: true });
    expect(await itemRow('notes', 'todo')).toBeUndefined();
  });

  it('refuses malformed arguments with invalid_input and changes nothing', async () => {
    const wrongType = await call('items_list', { collection: 5 });
    expect(wrongType).toMatchObject({ isError: true, structured: { error: { code: 'invalid_input' } } });
    const extra = await call('item_write', {
      collection: 'notes',
      item: 'sneaky',
      requestId: 'req-tools-bad-1',
      ifNoneMatch: '*',
      content: { body: 'x' },
      owner: 'me',
    });
    expect(extra).toMatchObject({ isError: true, structured: { error: { code: 'invalid_input' } } });
    const both = await call('item_write', {
      collection: 'notes',
      item: 'sneaky',
      requestId: 'req-tools-bad-2',
      content: { body: 'x' },
      metadata: { read: true },
    });
    expect(both).toMatchObject({ isError: true, structured: { error: { code: 'invalid_input' } } });
    expect(await itemRow('notes', 'sneaky')).toBeUndefined();
    const receipts = await server.store.db.selectFrom('receipts').select('request_id').execute();
    expect(receipts.map((row) => row.request_id)).not.toContain('req-tools-bad-1');
  });

  it('answers an unknown tool and malformed JSON-RPC with JSON-RPC errors', async () => {
    await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
    const auth = { authorization: `Bearer ${token}` };
    const unknownTool = await postMcp(
      server,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nope', arguments: {} } },
      auth,
    );
    expect(await unknownTool.json()).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });

    const notJson = await postMcp(server, '{"jsonrpc": "2.0", "id": 1,', auth);
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });

    const notJsonRpc = await postMcp(server, { hello: 'world' }, auth);
    expect(notJsonRpc.status).toBe(400);
    expect(await notJsonRpc.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });

    const unknownMethod = await postMcp(server, { jsonrpc: '2.0', id: 2, method: 'resources/destroy' }, auth);
    expect(await unknownMethod.json()).toMatchObject({ id: 2, error: { code: -32601 } });

    const badParams = await postMcp(
      server,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'items_list', arguments: 'notes' } },
      auth,
    );
    expect(await badParams.json()).toMatchObject({ id: 3, error: { code: -32602 } });

    const batch = await postMcp(server, [{ jsonrpc: '2.0', id: 4, method: 'tools/list' }], auth);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { code: -32600 } });
  });
});
