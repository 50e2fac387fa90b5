import { Writable } from 'node:stream';
import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { browserClient } from '../browser-access/browser-client.js';
import { connectClient, createConnection, parseResult } from '../mcp/support.js';
import { callJson, signIn } from '../owner/owner-client.js';

/**
 * The bookkeeping policy of the one call path: a usage row or last-used marker that cannot be
 * written never replaces the answer — above all not the answer of a write that committed. The
 * store is made to fail for real (the usage table renamed away, a trigger refusing the marker).
 */
const write = (item: string) => ({
  collection: 'notes',
  item,
  requestId: `req-${item}-0001`,
  ifNoneMatch: '*',
  content: { title: item, body: `body of ${item}` },
});

for (const dialect of DIALECTS) {
  describe(`bookkeeping never replaces an answer (${dialect.name})`, () => {
    let server: TestServer;
    let logLines: string[];
    afterEach(() => server.close());

    async function start() {
      logLines = [];
      const stream = new Writable({
        write(chunk, _encoding, done) {
          logLines.push(String(chunk));
          done();
        },
      });
      server = await startTestServer({ dialect, logger: { level: 'error', stream } });
    }

    /** Every usage insert fails from now on, as on a full disk or a broken table. */
    const breakUsage = () => sql`alter table usage rename to usage_gone`.execute(server.store.db);

    /** Every write of a connection's last-used marker fails from now on. */
    async function breakTouch() {
      if (server.store.dialect === 'sqlite') {
        await sql`create trigger refuse_touch before update of last_used_at on app_connections
          begin select raise(abort, 'marker refused'); end`.execute(server.store.db);
        return;
      }
      await sql`create function refuse_touch() returns trigger language plpgsql as
        $$ begin raise exception 'marker refused'; end $$`.execute(server.store.db);
      await sql`create trigger refuse_touch before update of last_used_at on app_connections
        for each row execute function refuse_touch()`.execute(server.store.db);
    }

    const stored = (item: string) =>
      server.store.db
        .selectFrom('items')
        .select(['id', 'content'])
        .where('account_id', '=', server.accountId)
        .where('collection_id', '=', 'notes')
        .where('id', '=', item)
        .executeTakeFirst();

    async function logged(message: string) {
      for (let i = 0; i < 100 && !logLines.some((line) => line.includes(message)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return logLines.filter((line) => line.includes(message));
    }

    it('/mcp: a committed write answers its result when the usage rows cannot be written', async () => {
      await start();
      const connection = await createConnection(server, [{ collection: 'notes', functions: ['item_write'] }]);
      const client = await connectClient(server, connection.token);
      await breakUsage();
      const answer = parseResult(await client.callTool({ name: 'item_write', arguments: write('mcp-note') }));
      await client.close();
      expect(answer.isError).toBe(false);
      expect(answer.structured).toMatchObject({
        collection: 'notes',
        created: true,
        item: { id: 'mcp-note' },
      });
      expect(await stored('mcp-note')).toEqual({ id: 'mcp-note', content: 'body of mcp-note' });
      // /mcp's usage rows are written in batches: the failure shows when the batch is flushed.
      await server.app.diosc.usage.flush();
      expect(await logged('usage rows not written')).toHaveLength(1);
    });

    it('owner API: a committed write answers 200 and a refusal keeps its code when usage fails', async () => {
      await start();
      const owner = await signIn(server.url);
      await breakUsage();
      const created = await callJson(server.url, '/operations/item_write', owner, {
        body: write('owner-note'),
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({
        replayed: false,
        result: { created: true, item: { id: 'owner-note' } },
      });
      expect(await stored('owner-note')).toEqual({ id: 'owner-note', content: 'body of owner-note' });
      // A refusal is still the refusal, not an internal error.
      const stale = await callJson(server.url, '/operations/item_write', owner, {
        body: {
          ...write('owner-note'),
          requestId: 'req-owner-stale-1',
          ifNoneMatch: undefined,
          ifMatch: '9',
        },
      });
      expect(stale.status).toBe(412);
      expect(stale.body).toMatchObject({ error: { code: 'precondition_failed' } });
      expect(await logged('usage row not written')).toHaveLength(2);
    });

    it('browser access: an executed write answers its result when usage and the marker both fail', async () => {
      await start();
      const owner = await signIn(server.url);
      const browser = browserClient(server.url, owner);
      expect((await browser.enable([{ collection: 'notes', functions: ['item_write'] }])).status).toBe(200);
      await breakUsage();
      await breakTouch();
      const executed = await browser.reviewAndExecute('item_write', write('browser-note'));
      expect(executed.status).toBe(200);
      expect(executed.body).toMatchObject({
        replayed: false,
        result: { created: true, item: { id: 'browser-note' } },
      });
      expect(await stored('browser-note')).toEqual({ id: 'browser-note', content: 'body of browser-note' });
      expect(await logged('usage row not written')).toHaveLength(1);
      expect(await logged('last-used marker not written')).toHaveLength(1);
      // The same request again replays the committed result: the write happened exactly once.
      const again = await browser.reviewAndExecute('item_write', write('browser-note'));
      expect(again.body).toMatchObject({ replayed: true, result: { created: true } });
    });
  });
}
