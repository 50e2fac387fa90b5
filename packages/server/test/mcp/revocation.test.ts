import { createServer } from 'node:net';
import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { openConfiguredStore } from '../../src/store/configured-store.js';
import type { Store } from '../../src/store/dialect.js';
import { browserClient } from '../browser-access/browser-client.js';
import { call, signIn } from '../owner/owner-client.js';
import { ALL_NOTES, createConnection, parseResult, postMcp } from './support.js';

function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * "Revocation applies to the very next call", from the attacker's side, with the change made on
 * another instance over the same store: instance A has just answered the caller (so whatever A keeps
 * between requests is warm), instance B revokes, rotates, narrows or disconnects, and the very next
 * call on A is refused with its code — and nothing was written.
 */
for (const dialect of DIALECTS) {
  describe(`the very next /mcp call after a change on another instance (${dialect.name})`, () => {
    let a: TestServer;
    let b: { app: FastifyInstance; store: Store; url: string };
    beforeAll(async () => {
      a = await startTestServer({ dialect });
      // Instance B: its own process state, store connections and port, over A's database.
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const store = await openConfiguredStore(a.config);
      const app = await buildApp({
        config: { ...a.config, port, publicOrigin: url },
        store,
        clock: a.clock,
        logger: false,
        usageFlushMs: 0,
      });
      await app.listen({ host: '127.0.0.1', port });
      b = { app, store, url };
    });
    afterAll(async () => {
      b.app.server.closeAllConnections();
      await b.app.close();
      await b.store.close();
      await a.close();
    });

    /** Everything a refused call could have written: items, receipts, connections. */
    const snapshot = async () => ({
      items: await a.store.db
        .selectFrom('items')
        .selectAll()
        .orderBy('collection_id')
        .orderBy('id')
        .execute(),
      receipts: await a.store.db
        .selectFrom('receipts')
        .selectAll()
        .orderBy('actor')
        .orderBy('request_id')
        .execute(),
      connections: await a.store.db.selectFrom('app_connections').selectAll().orderBy('id').execute(),
    });
    const toolCall = (name: string, args: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    const write = (requestId: string) =>
      toolCall('item_write', {
        collection: 'notes',
        item: `after-${requestId}`,
        requestId,
        ifNoneMatch: '*',
        content: { body: 'must never be written' },
      });
    const onA = (token: string, body: unknown) => postMcp(a, body, { authorization: `Bearer ${token}` });
    /** A call A answers: the connection's state is warm on A before B changes it. */
    const answered = async (token: string) => {
      const response = await onA(token, toolCall('items_list', { collection: 'notes' }));
      expect(response.status).toBe(200);
      expect(parseResult(((await response.json()) as { result: unknown }).result).isError).toBe(false);
    };
    const expectUnauthenticated = async (response: Response) => {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="diosc", error="invalid_token"');
      expect(await response.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    };
    const toolError = async (response: Response) => {
      expect(response.status).toBe(200);
      const parsed = parseResult(((await response.json()) as { result: unknown }).result);
      expect(parsed.isError).toBe(true);
      return (parsed.structured as { error: { code: string } }).error.code;
    };

    it('a token revoked on B is refused on A at once; nothing is written', async () => {
      const connection = await createConnection(a, [ALL_NOTES]);
      await answered(connection.token);
      await b.app.diosc.connections.revoke(a.accountId, connection.id);
      const before = await snapshot();

      await expectUnauthenticated(await onA(connection.token, write('req-revoked-1')));
      await expectUnauthenticated(
        await onA(connection.token, toolCall('items_list', { collection: 'notes' })),
      );
      expect(await snapshot()).toEqual(before);
    });

    it('a token rotated on B stops on A at once; the new one works on A', async () => {
      const connection = await createConnection(a, [ALL_NOTES]);
      await answered(connection.token);
      const { token } = await b.app.diosc.connections.rotate(a.accountId, connection.id);
      const before = await snapshot();

      await expectUnauthenticated(await onA(connection.token, write('req-rotated-1')));
      expect(await snapshot()).toEqual(before);
      await answered(token);
    });

    it('a grant narrowed on B applies to the very next call on A; nothing is written', async () => {
      const connection = await createConnection(a, [
        ALL_NOTES,
        { collection: 'inbox', functions: ['items_list'] },
      ]);
      await answered(connection.token);
      // Warm the exact call that will be refused, too.
      expect(
        await onA(connection.token, toolCall('items_list', { collection: 'inbox' })).then((r) => r.status),
      ).toBe(200);
      await b.app.diosc.connections.changeGrant(a.accountId, connection.id, [
        { collection: 'notes', functions: ['items_list'] },
      ]);
      const before = await snapshot();

      // A collection taken out of the grant: refused by the core.
      expect(
        await toolError(await onA(connection.token, toolCall('items_list', { collection: 'inbox' }))),
      ).toBe('not_granted');
      // A function granted nowhere any more is not even a tool of this connection.
      const refusedWrite = await onA(connection.token, write('req-narrowed-1'));
      expect(refusedWrite.status).toBe(200);
      expect(await refusedWrite.json()).toMatchObject({
        error: { message: expect.stringMatching(/Unknown tool/) },
      });
      const listed = await onA(connection.token, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const names = ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map(
        (tool) => tool.name,
      );
      expect(names).toEqual(['collections_list', 'items_list']);
      expect(await snapshot()).toEqual(before);
    });

    it('a source disconnected on B is refused on A at once; the rest of the grant still works', async () => {
      const connection = await createConnection(a, [
        ALL_NOTES,
        { collection: 'drive', functions: ['items_list', 'item_read'] },
      ]);
      const listDrive = () => onA(connection.token, toolCall('items_list', { collection: 'drive' }));
      expect(await listDrive().then((r) => r.status)).toBe(200);
      await b.app.diosc.core.disconnectSource(a.accountId, 'drive');
      const before = await snapshot();

      expect(await toolError(await listDrive())).toBe('source_revoked');
      expect(
        await toolError(
          await onA(connection.token, toolCall('item_read', { collection: 'drive', item: 'roadmap' })),
        ),
      ).toBe('source_revoked');
      expect(await snapshot()).toEqual(before);
      await answered(connection.token);
    });

    it('signing out on B ends the session on A: the next browser-access call is refused', async () => {
      const owner = await signIn(a.url);
      const browser = browserClient(a.url, owner);
      expect((await browser.enable([{ collection: 'notes', functions: ['items_list'] }])).status).toBe(200);
      expect((await browser.dispatch('items_list', { collection: 'notes' })).status).toBe(200);
      const out = await call(b.url, '/session', owner, { method: 'DELETE' });
      expect(out.status).toBe(204);
      const before = await snapshot();

      const refused = await browser.dispatch('items_list', { collection: 'notes' });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: { code: 'session_expired' } });
      // The session's browser access was revoked with it, in the store both instances read.
      const access = await a.store.db
        .selectFrom('app_connections')
        .select('revoked_at')
        .where('transport', '=', 'browser')
        .execute();
      expect(access.length).toBeGreaterThan(0);
      expect(access.every((row) => row.revoked_at !== null)).toBe(true);
      expect(await snapshot()).toEqual(before);
    });
  });
}
