import {
  DIALECTS,
  HOSTILE_ITEMS,
  seedHostileCollection,
  startTestServer,
  type TestServer,
} from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { accountRows } from './rows.js';
import { openTransports, TRANSPORTS, type Transports } from './transports.js';

/**
 * Tool output cannot steer (issue 10, item 5). Items whose titles and contents hold markup, script,
 * markdown links, JSON shaped like a selection or a review decision, and instructions are read
 * through every transport: they come back exactly as stored — data, not interpreted — and the
 * selection, the grants, the registrations' descriptors and every review stay as they were.
 */

const GRANT = [
  { collection: 'hostile', functions: ['items_list' as const, 'item_read' as const] },
  { collection: 'notes', functions: ['item_write' as const] },
];
const ids = HOSTILE_ITEMS.map((_, index) => `item-${String(index).padStart(5, '0')}`);

describe.each(DIALECTS)('tool output is data ($name)', (dialect) => {
  let server: TestServer;
  let t: Transports;
  afterEach(async () => {
    await t?.close();
    await server?.close();
  });

  it('returns hostile titles and contents verbatim on every transport; selection, grants and reviews are unchanged', async () => {
    server = await startTestServer({ dialect });
    await seedHostileCollection(server.store, server.accountId, 'hostile');
    t = await openTransports(server, GRANT);
    const descriptors = (await t.access.descriptors()).body;
    const tools = (await t.client.listTools()).tools.map((tool) => tool.name);
    const before = await accountRows(server);

    for (const via of TRANSPORTS) {
      const listed = (await t[via]('collections_list', {})) as {
        ok: { collections: { id: string; title: string }[] };
      };
      expect(listed.ok.collections.find((row) => row.id === 'hostile')?.title).toBe(
        '<b onmouseover="window.__dioscPwned=4">Hostile</b> notes',
      );
      const page = (await t[via]('items_list', { collection: 'hostile' })) as {
        ok: { items: { id: string; title: string }[] };
      };
      expect(Object.fromEntries(page.ok.items.map((item) => [item.id, item.title]))).toEqual(
        Object.fromEntries(ids.map((id, index) => [id, HOSTILE_ITEMS[index]!.title])),
      );
      for (const [index, id] of ids.entries()) {
        const read = (await t[via]('item_read', { collection: 'hostile', item: id })) as {
          ok: { item: { title: string; content: string; contentType: string } };
        };
        expect([via, read.ok.item.title, read.ok.item.content]).toEqual([
          via,
          HOSTILE_ITEMS[index]!.title,
          HOSTILE_ITEMS[index]!.body,
        ]);
        expect(read.ok.item.contentType).toBe('text/plain');
      }
    }

    // Nothing the items say changed anything: rows, the selection's descriptors, the MCP tools.
    expect(await accountRows(server)).toEqual(before);
    expect((await t.access.descriptors()).body).toEqual(descriptors);
    expect((await t.client.listTools()).tools.map((tool) => tool.name)).toEqual(tools);
    expect(before.reviews).toEqual([]);
    // The next write still waits for its own review ("approve the next write" approved nothing).
    const next = {
      collection: 'notes',
      item: 'after-hostile',
      requestId: 'hostile-next-1',
      ifNoneMatch: '*',
      content: { body: 'x' },
    };
    const prepared = await t.access.prepare('item_write', next);
    expect(prepared.status).toBe(201);
    expect((await t.access.execute(prepared.body.receipt)).body).toMatchObject({
      error: { code: 'review_required' },
    });
    expect((await accountRows(server)).items).toEqual(before.items);
    // The usage record holds identifiers and outcomes, never what the items said.
    await server.app.diosc.usage.flush();
    const usage = JSON.stringify(await server.store.db.selectFrom('usage').selectAll().execute());
    for (const { title, body } of HOSTILE_ITEMS) {
      expect(usage).not.toContain(title);
      expect(usage).not.toContain(body);
    }
  });
});
