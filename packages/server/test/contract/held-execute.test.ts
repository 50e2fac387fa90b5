import { createCallGate, DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { browserClient } from '../browser-access/browser-client.js';
import { callJson, type OwnerSession, signIn } from '../owner/owner-client.js';

/**
 * No success before the result (issue 10, item 4), at the server: an acknowledged execute is
 * answered only once the core has run it, with what the core answered — the change, or a refusal
 * such as `precondition_failed` when the item changed while the write was held.
 */

const SELECTION = [{ collection: 'notes', functions: ['item_read' as const, 'item_write' as const] }];

describe.each(DIALECTS)('an execute held in the server ($name)', (dialect) => {
  let server: TestServer;
  let owner: OwnerSession;
  const gate = createCallGate();
  afterEach(async () => {
    gate.releaseAll();
    await server?.close();
  });

  async function heldExecute(requestId: string) {
    server = await startTestServer({ dialect, app: { holdCall: gate.hold } });
    owner = await signIn(server.url);
    const tools = browserClient(server.url, owner);
    await tools.enable(SELECTION);
    const input = {
      collection: 'notes',
      item: 'groceries',
      requestId,
      ifMatch: '1',
      content: { body: `- written by ${requestId}` },
    };
    const prepared = await tools.prepare('item_write', input);
    expect((await tools.acknowledge(prepared.body.receipt)).status).toBe(200);
    const held = gate.next({ channel: 'browser', name: 'item_write' });
    let settled = false;
    const answer = tools.execute(prepared.body.receipt).finally(() => {
      settled = true;
    });
    await held.reached;
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { held, answer, settled: () => settled };
  }
  const groceries = () =>
    server.store.db
      .selectFrom('items')
      .select(['content', 'version'])
      .where('id', '=', 'groceries')
      .executeTakeFirstOrThrow();

  it('answers nothing while the write is held, then the committed change', async () => {
    const { held, answer, settled } = await heldExecute('held-exec-0001');
    expect(settled()).toBe(false);
    expect((await groceries()).version).toBe(1);
    held.release();
    const done = await answer;
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ result: { item: { version: '2' }, created: false }, replayed: false });
    expect(await groceries()).toEqual({ content: '- written by held-exec-0001', version: 2 });
  });

  it('answers the refusal the core gave when the item changed while it was held: precondition_failed', async () => {
    const { held, answer, settled } = await heldExecute('held-exec-0002');
    // The owner saves the item in the portal meanwhile.
    const own = await callJson(server.url, '/operations/item_write', owner, {
      body: {
        collection: 'notes',
        item: 'groceries',
        requestId: 'owner-save-0001',
        ifMatch: '1',
        content: { body: 'owner' },
      },
    });
    expect(own.status).toBe(200);
    expect(settled()).toBe(false);
    held.release();
    const done = await answer;
    expect(done.status).toBe(412);
    expect(done.body).toMatchObject({ error: { code: 'precondition_failed' } });
    expect(await groceries()).toEqual({ content: 'owner', version: 2 });
    const receipts = await server.store.db.selectFrom('receipts').select('request_id').execute();
    expect(receipts.map((row) => row.request_id)).toEqual(['owner-save-0001']);
  });
});
