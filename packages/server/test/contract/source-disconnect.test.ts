import {
  createCallGate,
  DIALECTS,
  seedCollection,
  startTestServer,
  type TestServer,
} from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { callJson } from '../owner/owner-client.js';
import { accountRows } from './rows.js';
import { codeOf, openTransports, TRANSPORTS, type Transports } from './transports.js';

/**
 * Source disconnect (issue 10, item 1): the owner disconnects the provider source of an external
 * collection; from then on every call naming it, on every transport, answers `source_revoked`, and
 * nothing else about the account changes.
 */

/** `drive` is the demo's external mirror; `notes:items_list` is what must keep working. */
const GRANT = [
  { collection: 'drive', functions: ['items_list' as const, 'item_read' as const] },
  { collection: 'notes', functions: ['items_list' as const] },
];

describe.each(DIALECTS)('source disconnect ($name)', (dialect) => {
  let server: TestServer;
  let t: Transports;
  const gate = createCallGate();
  afterEach(async () => {
    gate.releaseAll();
    await t?.close();
    await server?.close();
  });

  async function start() {
    server = await startTestServer({ dialect, app: { holdCall: gate.hold } });
    t = await openTransports(server, GRANT);
  }
  const disconnect = (id: string, headers: Record<string, string | undefined> = {}) =>
    callJson(server.url, `/collections/${id}/source`, t.session, { method: 'DELETE', headers });

  it('refuses a disconnect without the CSRF token, of a non-external or unknown collection; nothing changes', async () => {
    await start();
    const before = await accountRows(server);
    const refusals = [
      await disconnect('drive', { 'x-csrf-token': undefined }),
      await disconnect('drive', { origin: 'http://evil.example' }),
      await disconnect('notes'),
      await disconnect('inbox'),
      await disconnect('nope'),
    ];
    expect(refusals.map((r) => [r.status, (r.body.error as { code: string }).code])).toEqual([
      [403, 'csrf_failed'],
      [403, 'forbidden_origin'],
      [405, 'unavailable'],
      [405, 'unavailable'],
      [404, 'not_found'],
    ]);
    expect(await accountRows(server)).toEqual(before);
    expect(codeOf(await t.mcp('items_list', { collection: 'drive' }))).toBe('ok');
  });

  it('answers source_revoked on every transport for every call naming it; nothing else changes', async () => {
    await start();
    for (const via of TRANSPORTS)
      expect(codeOf(await t[via]('items_list', { collection: 'drive' }))).toBe('ok');
    const before = await accountRows(server);

    const done = await disconnect('drive');
    expect(done.status).toBe(200);
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(done.body).toEqual({
      collection: { id: 'drive', kind: 'external', title: 'Drive (mirror)' },
      disconnectedAt: new Date(server.clock.now()).toISOString(),
      changed: true,
    });
    // Idempotent: a second disconnect reports the first one and changes nothing.
    const again = await disconnect('drive');
    expect(again.body).toEqual({ ...done.body, changed: false });

    const calls: [string, Record<string, unknown>][] = [
      ['items_list', { collection: 'drive' }],
      ['item_read', { collection: 'drive', item: 'roadmap' }],
      ['item_read', { collection: 'drive', item: 'no-such-item' }],
    ];
    for (const via of TRANSPORTS) {
      for (const [tool, input] of calls)
        expect([via, tool, codeOf(await t[via](tool, input))]).toEqual([via, tool, 'source_revoked']);
      // The rest of the grant is untouched.
      expect(codeOf(await t[via]('items_list', { collection: 'notes' }))).toBe('ok');
    }
    // Before the kind's own refusal: a write names the collection too.
    const write = {
      collection: 'drive',
      item: 'roadmap',
      requestId: 'disconnect-w-1',
      ifMatch: '1',
      content: { body: 'x' },
    };
    expect(codeOf(await t.owner('item_write', write))).toBe('source_revoked');
    expect((await t.access.prepare('item_write', write)).status).toBe(403); // not in the selection at all

    // Listed with no functions and its state, on every transport (the grant names it), not hidden.
    for (const via of TRANSPORTS) {
      const listed = (await t[via]('collections_list', {})) as {
        ok: { collections: Record<string, unknown>[] };
      };
      const drive = listed.ok.collections.find((row) => row.id === 'drive');
      expect([via, drive]).toEqual([
        via,
        {
          id: 'drive',
          kind: 'external',
          title: 'Drive (mirror)',
          itemCount: 3,
          functions: [],
          state: 'disconnected',
        },
      ]);
      expect(listed.ok.collections.find((row) => row.id === 'notes')).not.toHaveProperty('state');
    }

    // Browser tools offer only what can still be called: item_read was drive's alone.
    const descriptors = await t.access.descriptors();
    expect((descriptors.body.tools as { name: string }[]).map((tool) => tool.name)).toEqual([
      'collections_list',
      'items_list',
    ]);
    expect(descriptors.body.selection).toEqual(GRANT);
    // /mcp keeps its tools (the grant is as the owner gave it); calling them answers source_revoked.
    const tools = await t.client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(['collections_list', 'items_list', 'item_read']);

    // Nothing else changed: items, grants and selections (generations too), receipts — only the
    // drive row's disconnect time.
    const after = await accountRows(server);
    const drive = after.collections.find((row) => row.id === 'drive' && row.account_id === server.accountId)!;
    expect(drive.source_disconnected_at).toBe(Date.parse(String(done.body.disconnectedAt)));
    expect({
      ...after,
      collections: after.collections.map((row) => ({ ...row, source_disconnected_at: null })),
    }).toEqual(before);
  });

  it('refuses a read that was in flight when the source was disconnected, on every transport', async () => {
    await start();
    const mirrors = ['mirror-owner', 'mirror-mcp', 'mirror-browser'];
    for (const id of mirrors) {
      await seedCollection(server.store, server.accountId, { id, kind: 'external', title: id }, { items: 2 });
    }
    await t.close();
    const grant = [
      ...GRANT,
      ...mirrors.map((collection) => ({ collection, functions: ['items_list' as const] })),
    ];
    t = await openTransports(server, grant);
    const channel = { owner: 'owner', mcp: 'http_mcp', browser: 'browser' } as const;

    for (const [index, via] of TRANSPORTS.entries()) {
      const collection = mirrors[index]!;
      // A control first: a held read of a connected source, released, answers its data.
      const control = gate.next({ channel: channel[via], name: 'items_list' });
      const controlled = t[via]('items_list', { collection });
      await control.reached;
      control.release();
      expect(codeOf(await controlled)).toBe('ok');

      const held = gate.next({ channel: channel[via], name: 'items_list' });
      const answer = t[via]('items_list', { collection });
      await held.reached; // authorized, admitted, and about to read
      expect((await disconnect(collection)).status).toBe(200);
      held.release();
      expect([via, await answer]).toEqual([via, { code: 'source_revoked' }]);
    }
  });
});
