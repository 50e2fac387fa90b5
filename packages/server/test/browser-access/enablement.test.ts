import { descriptorsFor } from '@diosc/protocol';
import { DIALECTS, OWNER_PASSWORD, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollection } from '../../src/account/collections.js';
import { callJson, type OwnerSession, signIn } from '../owner/owner-client.js';
import { browserClient } from './browser-client.js';

describe.each(DIALECTS)('browser access: enablement, descriptors, selection ($name)', (dialect) => {
  let server: TestServer;
  let owner: OwnerSession;
  let browser: ReturnType<typeof browserClient>;
  afterEach(() => server.close());

  async function start() {
    server = await startTestServer({ dialect });
    owner = await signIn(server.url);
    browser = browserClient(server.url, owner);
  }
  const connectionRows = () =>
    server.store.db.selectFrom('app_connections').selectAll().orderBy('id').execute();
  const usageRows = () => server.store.db.selectFrom('usage').selectAll().orderBy('id').execute();

  it('stores the exact selection as a browser connection bound to this session', async () => {
    await start();
    expect((await browser.state()).body).toEqual({
      enabled: false,
      selection: null,
      generation: null,
      sessionGeneration: 1,
    });
    const enabled = await browser.enable([
      { collection: 'notes', functions: ['item_read', 'items_list'] },
      { collection: 'inbox', functions: ['items_list'] },
    ]);
    expect(enabled.status).toBe(200);
    const selection = [
      { collection: 'inbox', functions: ['items_list'] },
      { collection: 'notes', functions: ['items_list', 'item_read'] },
    ];
    expect(enabled.body).toEqual({ enabled: true, selection, generation: 1, sessionGeneration: 1 });
    const [row] = await connectionRows();
    expect(row).toMatchObject({
      transport: 'browser',
      provenance: 'owner-browser-consent',
      token_hash: null,
      revoked_at: null,
      grant_generation: 1,
    });
    expect(JSON.parse(row!.grant_json)).toEqual(selection);
    const sessions = await server.store.db.selectFrom('sessions').select('id_hash').execute();
    expect(row!.session_id_hash).toBe(sessions[0]!.id_hash);
    expect((await browser.state()).body).toEqual(enabled.body);
  });

  it('serves the catalog descriptors narrowed to the selection, with no secret in the body', async () => {
    await start();
    // Every secret this test holds: password, session cookie, CSRF token, an MCP bearer token.
    const mcp = await callJson<{ token: string }>(server.url, '/connections', owner, {
      body: { displayName: 'Agent', grant: [{ collection: 'notes', functions: ['items_list'] }] },
    });
    await browser.enable([
      { collection: 'notes', functions: ['items_list', 'item_write'] },
      { collection: 'drive', functions: ['item_read'] },
    ]);
    const response = await fetch(`${server.url}/api/owner/browser-access/descriptors`, {
      headers: { cookie: owner.cookie },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const raw = await response.text();
    const body = JSON.parse(raw) as { tools: { name: string }[]; generation: number };
    expect(body.tools).toEqual(descriptorsFor(['collections_list', 'items_list', 'item_read', 'item_write']));
    expect(body.generation).toBe(1);
    const sessionRow = await server.store.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    const secrets = [
      OWNER_PASSWORD,
      owner.sessionId,
      owner.cookie,
      owner.csrfToken,
      sessionRow.id_hash,
      sessionRow.csrf_secret,
      mcp.body.token,
      mcp.body.token.slice(4),
    ];
    for (const secret of secrets) expect(raw).not.toContain(secret);
    // No capability URL either: nothing that points at this server or its endpoints.
    expect(raw).not.toContain(server.url);
    expect(raw).not.toContain('127.0.0.1');
    expect(raw).not.toMatch(/https?:\/\//);
    expect(raw).not.toContain('/mcp');
  });

  it('refuses an invalid selection and changes nothing', async () => {
    await start();
    for (const selection of [
      [{ collection: 'nope', functions: ['items_list'] }],
      [{ collection: 'drive', functions: ['item_write'] }],
      [{ collection: 'inbox', functions: ['item_delete'] }],
      [{ collection: 'notes', functions: ['collections_list'] }],
      [],
      'everything',
    ]) {
      const refused = await browser.enable(selection);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: { code: 'selection_invalid' } });
    }
    expect(await connectionRows()).toEqual([]);
    const unknownField = await callJson(server.url, '/browser-access', owner, {
      method: 'PUT',
      body: { selection: [{ collection: 'notes', functions: ['items_list'] }], all: true },
    });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body).toMatchObject({ error: { code: 'invalid_input' } });
    expect(await connectionRows()).toEqual([]);
  });

  it('never grows: a collection created later is outside it, and asking for it is refused', async () => {
    await start();
    await browser.enable([{ collection: 'notes', functions: ['items_list'] }]);
    await createCollection(
      server.store.db,
      server.accountId,
      { id: 'later', kind: 'storage', title: 'Later' },
      0,
    );
    const descriptors = await browser.descriptors();
    expect(descriptors.body).toMatchObject({
      selection: [{ collection: 'notes', functions: ['items_list'] }],
    });
    const listed = await browser.dispatch('collections_list', {});
    expect(listed.body).toMatchObject({
      result: { collections: [{ id: 'notes', functions: ['items_list'] }] },
    });
    expect((listed.body.result as { collections: unknown[] }).collections).toHaveLength(1);

    const connectionsBefore = await connectionRows();
    const usageBefore = await usageRows();
    const later = await browser.dispatch('items_list', { collection: 'later' });
    expect(later.status).toBe(403);
    expect(later.body).toMatchObject({ error: { code: 'not_granted' } });
    const unselectedFunction = await browser.dispatch('item_read', {
      collection: 'notes',
      item: 'groceries',
    });
    expect(unselectedFunction.body).toMatchObject({ error: { code: 'not_granted' } });
    // A permission list in the request naming more than the selection is refused, never merged.
    for (const permissions of [
      [{ collection: 'later', functions: ['items_list'] }],
      [{ collection: 'notes', functions: ['items_list', 'item_delete'] }],
    ]) {
      const widened = await browser.dispatch('items_list', { collection: 'later' }, { permissions });
      expect(widened.status).toBe(403);
      expect(widened.body).toMatchObject({ error: { code: 'not_granted' } });
    }
    for (const field of ['selection', 'grant', 'scope']) {
      const smuggled = await browser.dispatch(
        'items_list',
        { collection: 'later' },
        { [field]: [{ collection: 'later', functions: ['items_list'] }] },
      );
      expect(smuggled.status).toBe(400);
      expect(smuggled.body).toMatchObject({ error: { code: 'invalid_input' } });
    }
    expect(await connectionRows()).toEqual(connectionsBefore);
    const usageAfter = await usageRows();
    // The calls that reached the core were recorded as refusals; nothing else was.
    const added = usageAfter.filter((row) => !usageBefore.some((old) => old.id === row.id));
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((row) => row.outcome === 'not_granted')).toBe(true);
    expect(
      await server.store.db.selectFrom('items').where('collection_id', '=', 'later').selectAll().execute(),
    ).toEqual([]);
    // A permission list within the selection is ignored: the call runs on the stored selection.
    const within = await browser.dispatch(
      'items_list',
      { collection: 'notes' },
      { permissions: [{ collection: 'notes', functions: ['items_list'] }] },
    );
    expect(within.status).toBe(200);
  });

  it('replacing the selection moves the generation; a call from the old one is refused', async () => {
    await start();
    await browser.enable([{ collection: 'notes', functions: ['items_list'] }]);
    const old = browser.generation;
    await browser.enable([{ collection: 'inbox', functions: ['items_list'] }]);
    const live = browser.generation;
    expect(live).toBeGreaterThan(old);
    browser.generation = old;
    const stale = await browser.dispatch('items_list', { collection: 'notes' });
    expect(stale.status).toBe(409);
    // The refusal names the live generation: what the page re-registers its tools from.
    expect(stale.body).toMatchObject({
      error: { code: 'generation_changed', details: { generation: live } },
    });
    const rows = await connectionRows();
    expect(rows.filter((row) => row.revoked_at === null)).toHaveLength(1);
  });

  it('disable revokes: descriptors and calls answer not_enabled', async () => {
    await start();
    // Turning off what is not on is not an error, and creates nothing.
    const idle = await browser.disable();
    expect(idle.status).toBe(200);
    expect(idle.body).toMatchObject({ enabled: false, selection: null, generation: null });
    expect(await connectionRows()).toEqual([]);
    await browser.enable([{ collection: 'notes', functions: ['items_list'] }]);
    const disabled = await browser.disable();
    expect(disabled.body).toMatchObject({ enabled: false, selection: null, generation: null });
    expect((await connectionRows())[0]!.revoked_at).not.toBeNull();
    expect((await browser.descriptors()).body).toMatchObject({ error: { code: 'not_enabled' } });
    const call = await browser.dispatch('items_list', { collection: 'notes' });
    expect(call.status).toBe(403);
    expect(call.body).toMatchObject({ error: { code: 'not_enabled' } });
  });

  it('fails explicitly: unknown tool, invalid input, write through dispatch', async () => {
    await start();
    await browser.enable([{ collection: 'notes', functions: ['items_list', 'item_write'] }]);
    expect((await browser.dispatch('shell_exec', {})).body).toMatchObject({
      error: { code: 'unknown_tool' },
    });
    expect((await browser.dispatch('items_list', { collection: 'notes', limit: 'all' })).body).toMatchObject({
      error: { code: 'invalid_input' },
    });
    const itemsBefore = await server.store.db.selectFrom('items').selectAll().orderBy('id').execute();
    const write = await browser.dispatch('item_write', {
      collection: 'notes',
      item: 'direct',
      requestId: 'direct-write-1',
      ifNoneMatch: '*',
      content: { body: 'no review' },
    });
    expect(write.status).toBe(409);
    expect(write.body).toMatchObject({ error: { code: 'review_required' } });
    expect(await server.store.db.selectFrom('items').selectAll().orderBy('id').execute()).toEqual(
      itemsBefore,
    );
  });
});
