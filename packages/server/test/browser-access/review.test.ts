import { createCallGate, DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createReviewReceipts, RECEIPT_TTL_MS } from '../../src/browser-access/review-receipts.js';
import { callJson, type OwnerSession, signIn } from '../owner/owner-client.js';
import { browserClient } from './browser-client.js';

const NOTES_RW = { collection: 'notes', functions: ['items_list', 'item_read', 'item_write', 'item_delete'] };
const INBOX_RW = { collection: 'inbox', functions: ['items_list', 'item_read', 'item_write'] };

const create = (item: string, body: string, requestId = `req-${item}-create`) => ({
  collection: 'notes',
  item,
  requestId,
  ifNoneMatch: '*',
  content: { title: item, body },
});

for (const dialect of DIALECTS) {
  describe(`browser access: prepare → acknowledge → execute (${dialect.name})`, () => {
    let server: TestServer;
    let owner: OwnerSession;
    let browser: ReturnType<typeof browserClient>;
    afterEach(() => server.close());

    async function start(selection = [NOTES_RW, INBOX_RW]) {
      server = await startTestServer({ dialect });
      owner = await signIn(server.url);
      browser = browserClient(server.url, owner);
      await browser.enable(selection);
    }
    /** Everything a refused execution must leave as it was. */
    const snapshot = async () => ({
      items: await server.store.db
        .selectFrom('items')
        .selectAll()
        .orderBy('collection_id')
        .orderBy('id')
        .execute(),
      receipts: await server.store.db.selectFrom('receipts').selectAll().orderBy('request_id').execute(),
      review: await server.store.db.selectFrom('review_receipts').selectAll().orderBy('id').execute(),
    });
    async function preparedAndAcknowledged(input: Record<string, unknown>, tool = 'item_write') {
      const prepared = await browser.prepare(tool, input);
      expect(prepared.status).toBe(201);
      expect((await browser.acknowledge(prepared.body.receipt)).body).toEqual({ acknowledged: true });
      return prepared.body.receipt;
    }

    it('prepares a receipt with the effects to review, binding session, generation and input digest', async () => {
      await start();
      const prepared = await browser.prepare('item_write', {
        collection: 'notes',
        item: 'groceries',
        requestId: 'req-replace-1',
        ifMatch: '1',
        content: { body: '- tea' },
      });
      expect(prepared.status).toBe(201);
      const { receipt } = prepared.body;
      expect(receipt.expiresAt).toBe(new Date(server.clock.now() + RECEIPT_TTL_MS).toISOString());
      expect(receipt.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(receipt.effects).toMatchObject({
        collection: { id: 'notes', kind: 'storage', title: 'Notes' },
        item: 'groceries',
        action: 'replace',
        before: { id: 'groceries', version: '1', content: expect.stringContaining('oat milk') },
        after: { title: 'Groceries', content: '- tea', contentType: 'text/markdown' },
      });
      const [row] = await server.store.db.selectFrom('review_receipts').selectAll().execute();
      const session = await server.store.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
      const connection = await server.store.db
        .selectFrom('app_connections')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        id: receipt.id,
        session_id_hash: session.id_hash,
        connection_id: connection.id,
        grant_generation: browser.generation,
        function_name: 'item_write',
        args_digest: receipt.digest,
        acknowledged_at: null,
        used_at: null,
      });
      const metadata = await browser.prepare('item_write', {
        collection: 'inbox',
        item: 'welcome',
        requestId: 'req-meta-1',
        metadata: { read: true },
      });
      expect(metadata.body.receipt.effects).toMatchObject({
        action: 'metadata',
        after: { metadata: { read: true } },
      });
      const deletion = await browser.prepare('item_delete', {
        collection: 'notes',
        item: 'ideas',
        requestId: 'req-delete-1',
        ifMatch: '1',
      });
      expect(deletion.body.receipt.effects).toMatchObject({
        action: 'delete',
        before: { id: 'ideas' },
        after: null,
      });
    });

    it('executes an acknowledged receipt once through the core, with request-ID replay', async () => {
      await start();
      const receipt = await preparedAndAcknowledged(create('todo', 'ship it'));
      const executed = await browser.execute(receipt);
      expect(executed.status).toBe(200);
      expect(executed.body).toMatchObject({
        replayed: false,
        result: { created: true, item: { id: 'todo' } },
      });
      const row = await server.store.db
        .selectFrom('items')
        .selectAll()
        .where('id', '=', 'todo')
        .executeTakeFirstOrThrow();
      expect(row.content).toBe('ship it');
      const receiptRow = await server.store.db.selectFrom('receipts').selectAll().executeTakeFirstOrThrow();
      expect(receiptRow.actor).toBe(`browser:${server.accountId}`);
      // The same request again has nothing to review: prepare answers the stored result, makes no
      // review receipt and writes nothing.
      const before = await snapshot();
      const again = await browser.prepare('item_write', create('todo', 'ship it'));
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ replayed: true, result: executed.body.result });
      expect(await snapshot()).toEqual(before);
      // The same request ID with other input is a collision, already at prepare.
      const collision = await browser.prepare('item_write', create('todo', 'other', 'req-todo-create'));
      expect(collision.status).toBe(409);
      expect(collision.body).toMatchObject({ error: { code: 'request_id_collision' } });
      expect(await snapshot()).toEqual(before);
      const usage = await server.store.db
        .selectFrom('usage')
        .selectAll()
        .where('tool', '=', 'item_write')
        .execute();
      expect(usage.map((entry) => entry.outcome).sort()).toEqual(['ok', 'replayed']);
      expect(usage.every((entry) => entry.transport === 'browser')).toBe(true);
    });

    it('refuses an unacknowledged receipt, and a reused one', async () => {
      await start();
      const prepared = await browser.prepare('item_write', create('once', 'one'));
      let before = await snapshot();
      const unacknowledged = await browser.execute(prepared.body.receipt);
      expect(unacknowledged.status).toBe(409);
      expect(unacknowledged.body).toMatchObject({ error: { code: 'review_required' } });
      expect(await snapshot()).toEqual(before);

      await browser.acknowledge(prepared.body.receipt);
      expect((await browser.execute(prepared.body.receipt)).status).toBe(200);
      before = await snapshot();
      const reused = await browser.execute(prepared.body.receipt);
      expect(reused.status).toBe(409);
      expect(reused.body).toMatchObject({ error: { code: 'receipt_used' } });
      expect((await browser.acknowledge(prepared.body.receipt)).body).toMatchObject({
        error: { code: 'receipt_used' },
      });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a receipt that does not exist, by any id, and changes nothing', async () => {
      await start();
      await preparedAndAcknowledged(create('real', 'x'));
      const before = await snapshot();
      for (const id of ['rcp-made-up', 'x'.repeat(65)]) {
        const fake = { id, tool: 'item_write', input: create('real', 'x'), digest: 'a'.repeat(64) };
        const executed = await browser.execute(fake);
        expect(executed.status).toBe(404);
        expect(executed.body).toMatchObject({
          error: { code: 'not_found', message: 'There is no such review receipt.' },
        });
        expect((await browser.acknowledge(fake)).body).toMatchObject({ error: { code: 'not_found' } });
      }
      expect(await snapshot()).toEqual(before);
    });

    it('consumes a receipt once: a second consume of the same row is refused by the store', async () => {
      await start();
      const receipt = await preparedAndAcknowledged(create('twice', 'x'));
      // Two executions that both passed `assertUsable` race on this one conditional update.
      const receipts = createReviewReceipts(server.store.db, server.clock, server.app.diosc.audit);
      const row = await server.store.db
        .selectFrom('review_receipts')
        .selectAll()
        .where('id', '=', receipt.id)
        .executeTakeFirstOrThrow();
      expect(await receipts.consume(row)).toBe(true);
      expect(await receipts.consume(row)).toBe(false);
      const used = await browser.execute(receipt);
      expect(used.body).toMatchObject({ error: { code: 'receipt_used' } });
    });

    it('gives a receipt back when the core refused before doing anything (busy), so the owner can retry', async () => {
      const gate = createCallGate();
      server = await startTestServer({
        dialect,
        limits: { maxConcurrentPerAccount: 1 },
        app: { holdCall: gate.hold },
      });
      owner = await signIn(server.url);
      browser = browserClient(server.url, owner);
      await browser.enable([NOTES_RW, INBOX_RW]);
      const receipt = await preparedAndAcknowledged(create('busy', 'later'));
      // The account's one slot is taken by a read held in the core.
      const held = gate.next({ channel: 'browser', name: 'items_list' });
      const read = browser.dispatch('items_list', { collection: 'notes' });
      await held.reached;
      const before = await snapshot();
      const busy = await browser.execute(receipt);
      expect(busy.body).toMatchObject({ error: { code: 'busy' } });
      expect(await snapshot()).toEqual(before);
      held.release();
      expect((await read).status).toBe(200);
      const retried = await browser.execute(receipt);
      expect(retried.status).toBe(200);
      expect((await browser.execute(receipt)).body).toMatchObject({ error: { code: 'receipt_used' } });
    });

    it('refuses to prepare a read: reads go through dispatch, and nothing is stored', async () => {
      await start();
      const before = await snapshot();
      const read = await browser.prepare('items_list', { collection: 'notes' });
      expect(read.status).toBe(400);
      expect(read.body).toMatchObject({
        error: { code: 'invalid_input', message: 'items_list is a read; call it through dispatch.' },
      });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses to acknowledge after the tools were re-selected or turned off since prepare', async () => {
      await start();
      const prepared = await browser.prepare('item_write', create('moved', 'x'));
      expect(prepared.status).toBe(201);
      const receipt = prepared.body.receipt;
      const wrongDigest = await browser.acknowledge({ id: receipt.id, digest: 'a'.repeat(64) });
      expect(wrongDigest.body).toMatchObject({
        error: { code: 'receipt_mismatch', message: 'The digest does not match the prepared input.' },
      });
      await browser.enable([NOTES_RW]);
      let before = await snapshot();
      const reselected = await browser.acknowledge(receipt);
      expect(reselected.status).toBe(409);
      expect(reselected.body).toMatchObject({
        error: {
          code: 'generation_changed',
          message: 'The selection changed after this change was prepared.',
        },
      });
      expect(await snapshot()).toEqual(before);
      await browser.disable();
      before = await snapshot();
      const off = await browser.acknowledge(receipt);
      expect(off.status).toBe(403);
      expect(off.body).toMatchObject({ error: { code: 'not_enabled' } });
      expect(await snapshot()).toEqual(before);
    });

    it('lets only one of two concurrent executions of a receipt run', async () => {
      await start();
      const receipt = await preparedAndAcknowledged(create('race', 'once'));
      const outcomes = await Promise.all([browser.execute(receipt), browser.execute(receipt)]);
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual([200, 409]);
      expect(outcomes.find((outcome) => outcome.status === 409)!.body).toMatchObject({
        error: { code: 'receipt_used' },
      });
      const runs = await server.store.db
        .selectFrom('usage')
        .selectAll()
        .where('tool', '=', 'item_write')
        .execute();
      expect(runs).toHaveLength(1);
    });

    it('treats acknowledge as an owner mutation: no CSRF token or a foreign Origin acknowledges nothing', async () => {
      await start();
      const prepared = await browser.prepare('item_write', create('ack', 'x'));
      const { id, digest } = prepared.body.receipt;
      for (const [headers, code] of [
        [{ 'x-csrf-token': undefined }, 'csrf_failed'],
        [{ origin: 'https://evil.example' }, 'forbidden_origin'],
      ] as const) {
        const refused = await callJson(server.url, `/browser-access/receipts/${id}/acknowledge`, owner, {
          body: { digest },
          headers,
        });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ error: { code } });
      }
      const row = await server.store.db
        .selectFrom('review_receipts')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.acknowledged_at).toBeNull();
      expect((await browser.execute(prepared.body.receipt)).body).toMatchObject({
        error: { code: 'review_required' },
      });
    });

    it('refuses an expired receipt (two minutes on the server clock)', async () => {
      await start();
      const receipt = await preparedAndAcknowledged(create('late', 'too late'));
      server.clock.advance(RECEIPT_TTL_MS);
      const before = await snapshot();
      const expired = await browser.execute(receipt);
      expect(expired.status).toBe(410);
      expect(expired.body).toMatchObject({ error: { code: 'receipt_expired' } });
      expect(await snapshot()).toEqual(before);
      // Acknowledging after expiry is refused too.
      const fresh = await browser.prepare('item_write', create('late2', 'x'));
      server.clock.advance(RECEIPT_TTL_MS + 1);
      expect((await browser.acknowledge(fresh.body.receipt)).body).toMatchObject({
        error: { code: 'receipt_expired' },
      });
    });

    it('refuses changed arguments, a changed tool and a wrong acknowledgment digest', async () => {
      await start();
      const receipt = await preparedAndAcknowledged(create('exact', 'reviewed text'));
      const before = await snapshot();
      for (const changed of [
        { ...receipt, input: { ...receipt.input, content: { title: 'exact', body: 'other text' } } },
        { ...receipt, input: { ...receipt.input, item: 'elsewhere' } },
        { ...receipt, input: { ...receipt.input, extra: true } },
        { ...receipt, tool: 'item_delete' },
      ]) {
        const refused = await browser.execute(changed);
        expect(refused.status).toBe(409);
        expect(refused.body).toMatchObject({ error: { code: 'receipt_mismatch' } });
      }
      expect(await snapshot()).toEqual(before);
      // Key order is not a change: the digest is over canonical JSON.
      const reordered = Object.fromEntries(Object.entries(receipt.input).reverse());
      expect((await browser.execute({ ...receipt, input: reordered })).status).toBe(200);

      const other = await browser.prepare('item_write', create('exact2', 'x'));
      const wrongDigest = await browser.acknowledge({ id: other.body.receipt.id, digest: '0'.repeat(64) });
      expect(wrongDigest.body).toMatchObject({ error: { code: 'receipt_mismatch' } });
      const row = await server.store.db
        .selectFrom('review_receipts')
        .selectAll()
        .where('id', '=', other.body.receipt.id)
        .executeTakeFirstOrThrow();
      expect(row.acknowledged_at).toBeNull();
    });

    it('refuses a receipt after the selection changed (generation), even with the new generation', async () => {
      await start();
      const receipt = await preparedAndAcknowledged(create('gen', 'x'));
      const old = browser.generation;
      await browser.enable([NOTES_RW]);
      const before = await snapshot();
      browser.generation = old;
      const stale = await browser.execute(receipt);
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ error: { code: 'generation_changed' } });
      browser.generation = (await browser.state()).body.generation as number;
      const rebound = await browser.execute(receipt);
      expect(rebound.status).toBe(409);
      expect(rebound.body).toMatchObject({ error: { code: 'receipt_mismatch' } });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses another session’s receipt, and the old session after sign-out', async () => {
      await start();
      const receipt = await preparedAndAcknowledged(create('mine', 'x'));
      const oldBrowser = browser;
      const newOwner = await signIn(server.url);
      const newBrowser = browserClient(server.url, newOwner);
      await newBrowser.enable([NOTES_RW]);
      const before = await snapshot();
      const stale = await oldBrowser.execute(receipt);
      expect(stale.status).toBe(401);
      expect(stale.body).toMatchObject({ error: { code: 'session_expired' } });
      const foreign = await newBrowser.execute(receipt);
      expect(foreign.status).toBe(409);
      // Refused by the session binding itself, not only by the record or generation it also names.
      expect(foreign.body).toMatchObject({
        error: { code: 'receipt_mismatch', message: 'This review receipt belongs to another session.' },
      });
      expect((await newBrowser.acknowledge(receipt)).body).toMatchObject({
        error: { code: 'receipt_mismatch', message: 'This review receipt belongs to another session.' },
      });
      expect(await snapshot()).toEqual(before);
    });

    it('ignores a permission list within the selection and refuses one asking for more', async () => {
      await start([{ collection: 'notes', functions: ['items_list', 'item_write'] }]);
      const receipt = await preparedAndAcknowledged(create('perm', 'x'));
      const before = await snapshot();
      const attempts: [unknown, number, string][] = [
        [[{ collection: 'notes', functions: ['item_write', 'item_delete'] }], 403, 'not_granted'],
        [[{ collection: 'inbox', functions: ['item_write'] }], 403, 'not_granted'],
        ['all', 400, 'invalid_input'],
      ];
      for (const [permissions, status, code] of attempts) {
        const refused = await browser.execute(receipt, { permissions });
        expect(refused.status, JSON.stringify(permissions)).toBe(status);
        expect(refused.body).toMatchObject({ error: { code } });
        expect(await snapshot()).toEqual(before);
      }
      const ok = await browser.execute(receipt, {
        permissions: [{ collection: 'notes', functions: ['item_write'] }],
      });
      expect(ok.status).toBe(200);
    });

    it('refuses to prepare on an unselected collection or function, and for unsupported input', async () => {
      await start([{ collection: 'notes', functions: ['items_list', 'item_write'] }]);
      const before = await snapshot();
      const inbox = await browser.prepare('item_write', {
        collection: 'inbox',
        item: 'welcome',
        requestId: 'req-inbox-1',
        metadata: { read: true },
      });
      expect(inbox.status).toBe(403);
      expect(inbox.body).toMatchObject({ error: { code: 'not_granted' } });
      const deletion = await browser.prepare('item_delete', {
        collection: 'notes',
        item: 'ideas',
        requestId: 'req-del-1',
        ifMatch: '1',
      });
      expect(deletion.body).toMatchObject({ error: { code: 'not_granted' } });
      const metadataOnStorage = await browser.prepare('item_write', {
        collection: 'notes',
        item: 'ideas',
        requestId: 'req-meta-2',
        metadata: { read: true },
      });
      expect(metadataOnStorage.status).toBe(422);
      expect(metadataOnStorage.body).toMatchObject({ error: { code: 'unsupported_input' } });
      const read = await browser.prepare('items_list', { collection: 'notes' });
      expect(read.body).toMatchObject({ error: { code: 'invalid_input' } });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses to execute when the item changed after review (the core’s ifMatch)', async () => {
      await start();
      const receipt = await preparedAndAcknowledged(
        { collection: 'notes', item: 'ideas', requestId: 'req-del-ideas', ifMatch: '1' },
        'item_delete',
      );
      await server.app.diosc.core.execute(
        'item_write',
        {
          collection: 'notes',
          item: 'ideas',
          requestId: 'owner-edit-1',
          ifMatch: '1',
          content: { body: 'new' },
        },
        { accountId: server.accountId, actor: 'owner:test', via: 'owner', grant: { kind: 'all' } },
      );
      const refused = await browser.execute(receipt);
      expect(refused.status).toBe(412);
      expect(refused.body).toMatchObject({ error: { code: 'precondition_failed' } });
      const row = await server.store.db
        .selectFrom('items')
        .selectAll()
        .where('id', '=', 'ideas')
        .executeTakeFirstOrThrow();
      expect(row.content).toBe('new');
    });
  });
}
