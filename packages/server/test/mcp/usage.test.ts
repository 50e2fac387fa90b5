import { Writable } from 'node:stream';
import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedBytes } from './stored-bytes.js';
import { connectClient, createConnection, parseResult, postMcp } from './support.js';

describe.each(DIALECTS)('HTTP MCP usage record ($name)', (dialect) => {
  let server: TestServer;
  const logLines: string[] = [];

  beforeAll(async () => {
    // The server's real logger at its most verbose, captured so the test can read every line.
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    server = await startTestServer({ dialect, logger: { level: 'trace', stream } });
  });
  afterAll(() => server.close());

  it('records every tool call without arguments or secrets, and never logs the token', async () => {
    const connection = await createConnection(server, [
      { collection: 'notes', functions: ['items_list', 'item_write'] },
    ]);
    const client = await connectClient(server, connection.token);
    const startedAt = performance.now();
    const secretBody = 'SECRET-BODY-7f3a: the launch code is 0000';
    const write = {
      collection: 'notes',
      item: 'diary',
      requestId: 'req-usage-write-1',
      ifNoneMatch: '*',
      content: { title: 'Private diary', body: secretBody },
    };
    expect(parseResult(await client.callTool({ name: 'item_write', arguments: write })).isError).toBe(false);
    expect(parseResult(await client.callTool({ name: 'item_write', arguments: write })).isError).toBe(false);
    expect(
      parseResult(await client.callTool({ name: 'items_list', arguments: { collection: 'inbox' } })).isError,
    ).toBe(true);
    expect(
      parseResult(await client.callTool({ name: 'items_list', arguments: { collection: 7 } })).isError,
    ).toBe(true);
    await expect(client.callTool({ name: 'item_delete', arguments: {} })).rejects.toThrow();
    await expect(client.callTool({ name: 'not a tool', arguments: {} })).rejects.toThrow();
    await client.close();
    // Refused requests that carry the token where it does not belong.
    await postMcp(
      server,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {},
      `/mcp?access_token=${connection.token}`,
    );
    await postMcp(
      server,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { authorization: `Bearer ${connection.token}x` },
    );

    // The rows of /mcp are batched: the test awaits their write, never the batch's timer.
    await server.app.diosc.usage.flush();
    const rows = await server.store.db
      .selectFrom('usage')
      .selectAll()
      .where('connection_id', '=', connection.id)
      .orderBy('created_at')
      .execute();
    expect(
      rows.map(({ transport, request_id, tool, collection_id, outcome }) => ({
        transport,
        request_id,
        tool,
        collection_id,
        outcome,
      })),
    ).toEqual([
      {
        transport: 'http_mcp',
        request_id: 'req-usage-write-1',
        tool: 'item_write',
        collection_id: 'notes',
        outcome: 'ok',
      },
      {
        transport: 'http_mcp',
        request_id: 'req-usage-write-1',
        tool: 'item_write',
        collection_id: 'notes',
        outcome: 'replayed',
      },
      {
        transport: 'http_mcp',
        request_id: null,
        tool: 'items_list',
        collection_id: 'inbox',
        outcome: 'not_granted',
      },
      {
        transport: 'http_mcp',
        request_id: null,
        tool: 'items_list',
        collection_id: null,
        outcome: 'invalid_input',
      },
      {
        transport: 'http_mcp',
        request_id: null,
        tool: 'item_delete',
        collection_id: null,
        outcome: 'not_granted',
      },
      {
        transport: 'http_mcp',
        request_id: null,
        tool: '(unknown)',
        collection_id: null,
        outcome: 'unknown_tool',
      },
    ]);
    // A duration is whole milliseconds of this call, within the test's own span of them; a call
    // refused before the core (outside the grant, unknown) did no work: exactly 0.
    const span = performance.now() - startedAt;
    for (const row of rows) {
      expect(Number.isInteger(row.duration_ms), `${row.outcome} duration is whole ms`).toBe(true);
      expect(row.duration_ms).toBeLessThanOrEqual(Math.ceil(span));
      expect(JSON.stringify(row)).not.toContain('SECRET-BODY');
    }
    expect(rows.slice(-2).map((row) => row.duration_ms)).toEqual([0, 0]);
    const used = await server.app.diosc.connections.get(server.accountId, connection.id);
    expect(used.last_used_at).toBe(server.clock.now());

    // The token is nowhere in the store (only its hash is) nor in any log line.
    const stored = await storedBytes(server);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.includes(connection.token)).toBe(false);
    const secretPart = connection.token.slice(4);
    const log = logLines.join('');
    expect(log).toContain('/mcp');
    expect(log).not.toContain(secretPart);
    expect(log).not.toContain('SECRET-BODY');
  });
});
