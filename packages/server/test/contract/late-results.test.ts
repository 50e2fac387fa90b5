import {
  createCallGate,
  createTestAccount,
  DIALECTS,
  OWNER_PASSWORD,
  startTestServer,
  type TestServer,
} from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { browserClient } from '../browser-access/browser-client.js';
import { call, callJson, signIn } from '../owner/owner-client.js';

/**
 * Late results after revocation (issue 10, item 6) — the seed's exact case: a read and a write are
 * dispatched through browser tools, then the owner signs out and another owner signs in before the
 * answers come. The read's data is never sent; the write, accepted before the revocation, completes
 * under its own account only (as with HTTP MCP); the new session sees none of it.
 */

const SELECTION = [
  { collection: 'notes', functions: ['items_list' as const, 'item_read' as const, 'item_write' as const] },
];
const OTHER = { email: 'other@localhost', password: 'another owner entirely' };

describe.each(DIALECTS)('late results after revocation ($name)', (dialect) => {
  let server: TestServer;
  const gate = createCallGate();
  afterEach(async () => {
    gate.releaseAll();
    await server?.close();
  });

  it('does not send the old read, keeps the old write in its account, and shows the new owner nothing', async () => {
    server = await startTestServer({ dialect, app: { holdCall: gate.hold } });
    const otherId = await createTestAccount(server.store, OTHER);
    const first = await signIn(server.url, OWNER_PASSWORD);
    const tools = browserClient(server.url, first);
    expect((await tools.enable(SELECTION)).status).toBe(200);
    const input = {
      collection: 'notes',
      item: 'late-write',
      requestId: 'late-write-0001',
      ifNoneMatch: '*',
      content: { title: 'First owner only', body: 'Written by the first owner before signing out.' },
    };
    const prepared = await tools.prepare('item_write', input);
    expect((await tools.acknowledge(prepared.body.receipt)).status).toBe(200);

    // Both dispatched and held inside the server, authorized for the first owner.
    const heldRead = gate.next({ channel: 'browser', name: 'items_list', accountId: first.accountId });
    const heldWrite = gate.next({ channel: 'browser', name: 'item_write', accountId: first.accountId });
    const read = tools.dispatch('items_list', { collection: 'notes' });
    const written = tools.execute(prepared.body.receipt);
    await Promise.all([heldRead.reached, heldWrite.reached]);

    // Sign-out, then another owner signs in (the same browser would now hold this session).
    expect((await call(server.url, '/session', first, { method: 'DELETE' })).status).toBe(204);
    const second = await signIn(server.url, OTHER.password, OTHER.email);
    expect(second.accountId).toBe(otherId);
    heldRead.release();
    heldWrite.release();

    // The read ran, but its answer is not sent to a session that ended meanwhile.
    const readAnswer = await read;
    expect(readAnswer.status).toBe(401);
    expect(readAnswer.body).toMatchObject({
      error: {
        code: 'session_expired',
        message: 'The session ended while the call ran; its result is not sent.',
      },
    });
    expect(JSON.stringify(readAnswer.body)).not.toMatch(/Groceries|oat milk|items/);
    // The write was accepted before: it completes, in the first owner's account and nowhere else.
    const writeAnswer = await written;
    expect(writeAnswer.status).toBe(200);
    const rows = await server.store.db
      .selectFrom('items')
      .select(['account_id', 'title'])
      .where('id', '=', 'late-write')
      .execute();
    expect(rows).toEqual([{ account_id: first.accountId, title: 'First owner only' }]);

    // The new session: no browser tools, no activity of the first owner, its own data untouched.
    const mine = browserClient(server.url, second);
    expect((await mine.state()).body).toMatchObject({ enabled: false, selection: null });
    expect((await mine.descriptors()).body).toMatchObject({ error: { code: 'not_enabled' } });
    const activity = await callJson<{ entries: unknown[] }>(
      server.url,
      '/activity?transport=browser',
      second,
    );
    expect(activity.body.entries).toEqual([]);
    const notes = await callJson<{ result: { items: { id: string }[] } }>(
      server.url,
      '/operations/items_list',
      second,
      {
        body: { collection: 'notes' },
      },
    );
    expect(notes.body.result.items.map((item) => item.id)).not.toContain('late-write');
    // And the old cookie stays dead.
    expect((await tools.dispatch('items_list', { collection: 'notes' })).status).toBe(401);
  });

  it('does not send a read that was in flight when the tools were turned off or re-selected', async () => {
    server = await startTestServer({ dialect, app: { holdCall: gate.hold } });
    const owner = await signIn(server.url, OWNER_PASSWORD);
    const tools = browserClient(server.url, owner);
    await tools.enable(SELECTION);
    for (const [change, code, message] of [
      [() => tools.disable(), 'not_enabled', 'Browser tools were turned off while the call ran.'],
      [
        () => tools.enable([{ collection: 'notes', functions: ['items_list'] }]),
        'generation_changed',
        'The selection changed while the call ran.',
      ],
    ] as const) {
      if (code === 'generation_changed') await tools.enable(SELECTION);
      const held = gate.next({ channel: 'browser', name: 'items_list' });
      const read = tools.dispatch('items_list', { collection: 'notes' });
      await held.reached;
      const generation = tools.generation;
      await change();
      // After a re-selection the refusal names the new generation, the one to register from.
      const live = tools.generation;
      tools.generation = generation;
      held.release();
      const answer = await read;
      const details = code === 'generation_changed' ? { details: { generation: live } } : {};
      expect([code, answer.body]).toEqual([
        code,
        { error: expect.objectContaining({ code, message, ...details }) },
      ]);
      if (code === 'generation_changed') expect(live).not.toBe(generation);
    }
  });
});
