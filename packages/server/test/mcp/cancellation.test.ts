import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CallSignal } from '../../src/account/caller-context.js';
import { createSlowStatements } from './slow-store.js';
import { connectClient, createConnection, parseResult } from './support.js';

describe.each(DIALECTS)('HTTP MCP cancellation ($name)', (dialect) => {
  let server: TestServer;
  const slow = createSlowStatements();
  /** The signals the core was given, recorded by the app's `holdCall` seam before each call's work. */
  const signals: CallSignal[] = [];
  let client: Client;
  let connection: { id: string; token: string; actor: string };

  beforeAll(async () => {
    server = await startTestServer({
      dialect,
      coreStorePlugins: [slow.plugin],
      app: {
        holdCall: ({ caller }) => {
          if (caller.signal) signals.push(caller.signal);
        },
      },
    });
    connection = await createConnection(server, [
      { collection: 'notes', functions: ['items_list', 'item_write'] },
    ]);
    client = await connectClient(server, connection.token);
  });
  afterAll(async () => {
    await client.close();
    // Sockets the aborted requests left keep-alive do not count as idle for Node; drop them now
    // instead of waiting for the keep-alive timeout.
    server.app.server.closeAllConnections();
    await server.close();
  });

  const write = (item: string, requestId: string) => ({
    name: 'item_write',
    arguments: {
      collection: 'notes',
      item,
      requestId,
      ifNoneMatch: '*',
      content: { body: `body of ${item}` },
    },
  });
  const item = (id: string) =>
    server.store.db.selectFrom('items').select(['id', 'version']).where('id', '=', id).executeTakeFirst();
  /** The outcomes recorded for a request ID, written (/mcp batches its rows; this flushes them). */
  const usageOf = async (requestId: string) => {
    await server.app.diosc.usage.flush();
    const rows = await server.store.db
      .selectFrom('usage')
      .select('outcome')
      .where('request_id', '=', requestId)
      .execute();
    return rows.map((row) => row.outcome);
  };
  /** Resolves once the call's usage row is recorded: it comes after the client stopped listening. */
  const rowOf = (requestId: string) =>
    server.app.diosc.usage.batch.nextRecord((row) => row.request_id === requestId);
  /** The abort of the signal the core was given for the newest call. */
  // The core's signal is a plain `aborted` flag (no events to await), so this one reads it until set.
  const coreAborted = () =>
    vi.waitFor(() => expect(signals.at(-1)!.aborted).toBe(true), { timeout: 10_000, interval: 5 });

  it('reports a write cancelled before dispatch as cancelled; no receipt, nothing written', async () => {
    const requestId = 'req-cancel-before-1';
    const hold = slow.holdNext('InsertQueryNode', 'receipts'); // the request ID is claimed, the change not begun
    const controller = new AbortController();
    // The rejection is taken at once so it is never reported as unhandled while the test waits.
    const call = client.callTool(write('cancel-me', requestId), { signal: controller.signal }).then(
      () => 'answered',
      () => 'rejected',
    );
    await hold.reached;
    controller.abort('user changed their mind'); // the client sends notifications/cancelled
    await coreAborted();
    const recorded = rowOf(requestId);
    hold.release();
    expect(await call).toBe('rejected');
    await recorded;

    expect(await usageOf(requestId)).toEqual(['cancelled']);
    expect(await server.app.diosc.core.receipts.find({ actor: connection.actor, requestId })).toBeUndefined();
    expect(await item('cancel-me')).toBeUndefined();

    // Nothing committed, so the same request ID now runs for real, exactly once.
    const retried = parseResult(await client.callTool(write('cancel-me', requestId)));
    expect(retried).toMatchObject({ isError: false, structured: { created: true } });
  });

  it('reports a write cancelled after dispatch as uncertain; the receipt shows it committed', async () => {
    const requestId = 'req-cancel-after-1';
    const hold = slow.holdNext('InsertQueryNode', 'items'); // inside the write's transaction
    const controller = new AbortController();
    const call = client.callTool(write('too-late', requestId), { signal: controller.signal }).then(
      () => 'answered',
      () => 'rejected',
    );
    await hold.reached;
    controller.abort();
    await coreAborted();
    const recorded = rowOf(requestId);
    hold.release();
    expect(await call).toBe('rejected');
    await recorded;

    expect(await usageOf(requestId)).toEqual(['uncertain']);
    const receipt = await server.app.diosc.core.receipts.find({ actor: connection.actor, requestId });
    expect(receipt?.status).toBe('committed');
    expect(await item('too-late')).toMatchObject({ version: 1 });

    // The same request ID replays the committed result; it never runs a second time.
    const replay = parseResult(await client.callTool(write('too-late', requestId)));
    expect(replay).toMatchObject({ isError: false, structured: { created: true } });
    expect((await usageOf(requestId)).sort()).toEqual(['replayed', 'uncertain']);
    expect(await item('too-late')).toMatchObject({ version: 1 });
  });

  it('treats a client that disconnects mid-call as a cancellation', async () => {
    const controller = new AbortController();
    const hold2 = slow.holdNext('InsertQueryNode', 'receipts');
    const dropId = 'req-cancel-drop-2';
    const dropped = fetch(`${server.url}/mcp`, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${connection.token}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 42,
        method: 'tools/call',
        params: write('dropped-2', dropId),
      }),
    });
    await hold2.reached;
    controller.abort();
    await expect(dropped).rejects.toThrow(/abort/i);
    await coreAborted();
    const recorded = rowOf(dropId);
    hold2.release();
    await recorded;
    expect(await usageOf(dropId)).toEqual(['cancelled']);
    expect(
      await server.app.diosc.core.receipts.find({ actor: connection.actor, requestId: dropId }),
    ).toBeUndefined();
    expect(await item('dropped-2')).toBeUndefined();
  });
});
