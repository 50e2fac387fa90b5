import { catalogDescriptors } from '@diosc/protocol';
import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection, parseResult, postMcp } from './support.js';

const MCP_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;
const pick = (value: Record<string, unknown>) =>
  Object.fromEntries(MCP_FIELDS.map((key) => [key, value[key]]));

describe.each(DIALECTS)('HTTP MCP on the 2026-07-28 revision ($name)', (dialect) => {
  let server: TestServer;
  let connection: { id: string; token: string; actor: string };
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer({ dialect });
    connection = await createConnection(server, [
      { collection: 'notes', functions: ['items_list', 'item_read', 'item_write', 'item_delete'] },
    ]);
    client = new Client(
      { name: 'modern', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${connection.token}` } },
      }),
    );
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('negotiates the modern revision and lists the catalog unchanged', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => pick(tool as Record<string, unknown>))).toEqual(
      catalogDescriptors().map((descriptor) => pick({ ...descriptor })),
    );
  });

  it('calls tools with the same results, refusals and receipts', async () => {
    const page = parseResult(
      await client.callTool({ name: 'items_list', arguments: { collection: 'notes', limit: 1 } }),
    );
    expect(page.isError).toBe(false);
    expect(page.text).toEqual(page.structured);
    const refused = parseResult(
      await client.callTool({ name: 'items_list', arguments: { collection: 'inbox' } }),
    );
    expect(refused).toMatchObject({ isError: true, structured: { error: { code: 'not_granted' } } });
    const write = {
      collection: 'notes',
      item: 'modern',
      requestId: 'req-modern-write-1',
      ifNoneMatch: '*',
      content: { body: 'hello from 2026' },
    };
    const created = parseResult(await client.callTool({ name: 'item_write', arguments: write }));
    expect(created).toMatchObject({ isError: false, structured: { created: true } });
    const replayed = parseResult(await client.callTool({ name: 'item_write', arguments: write }));
    expect(replayed.structured).toEqual(created.structured);
    const receipt = await server.app.diosc.core.receipts.find({
      actor: connection.actor,
      requestId: write.requestId,
    });
    expect(receipt?.status).toBe('committed');
  });

  it('keeps the same boundaries: no bearer, no entry', async () => {
    const response = await postMcp(
      server,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      },
      { 'mcp-protocol-version': '2026-07-28' },
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthenticated' } });
  });
});
