import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/secrets.js';
import { callJson, type OwnerSession, signIn } from './owner-client.js';

interface ConnectionView {
  id: string;
  grant: unknown;
  grantGeneration: number;
  revokedAt: string | null;
  tokenExpiresAt: string | null;
}

describe.each(DIALECTS)('connected apps, owner operations and activity ($name)', (dialect) => {
  let server: TestServer;
  let owner: OwnerSession;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    owner = await signIn(server.url);
  });
  afterAll(() => server.close());

  it('creates a connection, showing the token once and storing only its hash', async () => {
    const created = await callJson<{ connection: ConnectionView; token: string; mcpUrl: string }>(
      server.url,
      '/connections',
      owner,
      {
        body: {
          displayName: 'Desk assistant',
          grant: [{ collection: 'notes', functions: ['item_read', 'items_list'] }],
          expiresInDays: 30,
        },
      },
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { connection, token, mcpUrl } = created.body;
    expect(mcpUrl).toBe(`${server.url}/mcp`);
    expect(token).toMatch(/^dsc_/);
    expect(connection.grant).toEqual([{ collection: 'notes', functions: ['items_list', 'item_read'] }]);
    expect(connection.tokenExpiresAt).toBe(new Date(server.clock.now() + 30 * 86_400_000).toISOString());
    const row = await server.store.db
      .selectFrom('app_connections')
      .selectAll()
      .where('id', '=', connection.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const listed = await callJson(server.url, '/connections', owner);
    expect(JSON.stringify(listed.body)).not.toContain(token);
    expect(JSON.stringify(listed.body)).not.toContain(row.token_hash!);
    expect(listed.body).toMatchObject({ connections: [{ id: connection.id, transport: 'http_mcp' }] });
  });

  it('changes a grant (generation + 1), rotates the token and revokes', async () => {
    const { body } = await callJson<{ connection: ConnectionView; token: string }>(
      server.url,
      '/connections',
      owner,
      {
        body: { displayName: 'Rotating', grant: [{ collection: 'inbox', functions: ['items_list'] }] },
      },
    );
    const id = body.connection.id;
    const changed = await callJson<{ connection: ConnectionView }>(
      server.url,
      `/connections/${id}/grant`,
      owner,
      {
        method: 'PUT',
        body: { grant: [{ collection: 'inbox', functions: ['items_list', 'item_read'] }] },
      },
    );
    expect(changed.body.connection.grantGeneration).toBe(2);
    const rotated = await callJson<{ token: string }>(server.url, `/connections/${id}/rotate`, owner, {
      body: {},
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).not.toBe(body.token);
    expect(await server.app.diosc.connections.findByToken(body.token)).toBeUndefined();
    expect(await server.app.diosc.connections.findByToken(rotated.body.token)).toMatchObject({ id });
    const revoked = await callJson<{ connection: ConnectionView }>(server.url, `/connections/${id}`, owner, {
      method: 'DELETE',
    });
    expect(revoked.body.connection.revokedAt).not.toBeNull();
    expect(await server.app.diosc.connections.findByToken(rotated.body.token)).toBeUndefined();
  });

  it('refuses an invalid grant with selection_invalid and creates nothing', async () => {
    const before = await server.store.db.selectFrom('app_connections').selectAll().execute();
    for (const grant of [
      [{ collection: 'missing', functions: ['items_list'] }],
      [{ collection: 'drive', functions: ['item_write'] }],
      [{ collection: 'inbox', functions: ['item_delete'] }],
      [],
    ]) {
      const refused = await callJson(server.url, '/connections', owner, {
        body: { displayName: 'x', grant },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: { code: 'selection_invalid' } });
    }
    expect(await server.store.db.selectFrom('app_connections').selectAll().execute()).toEqual(before);
  });

  it('runs the owner’s own operations through the core with full authority, and logs them', async () => {
    const list = await callJson(server.url, '/operations/collections_list', owner, { body: {} });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ replayed: false });
    expect(
      (list.body as { result: { collections: { id: string }[] } }).result.collections.map((c) => c.id),
    ).toEqual(['drive', 'inbox', 'notes']);
    const input = {
      collection: 'notes',
      item: 'owner-note',
      requestId: 'owner-req-1',
      ifNoneMatch: '*',
      content: { body: 'hello' },
    };
    const write = await callJson(server.url, '/operations/item_write', owner, { body: input });
    expect(write.body).toMatchObject({ replayed: false, result: { created: true } });
    const replay = await callJson(server.url, '/operations/item_write', owner, { body: input });
    expect(replay.body).toMatchObject({ replayed: true, result: { created: true } });
    const unknown = await callJson(server.url, '/operations/drop_tables', owner, { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: 'unknown_tool' } });
    const activity = await callJson<{ entries: { tool: string; outcome: string; transport: string }[] }>(
      server.url,
      '/activity?transport=owner',
      owner,
    );
    expect(activity.body.entries.map((entry) => entry.outcome)).toEqual(
      expect.arrayContaining(['ok', 'replayed', 'unknown_tool']),
    );
    expect(activity.body.entries.every((entry) => entry.transport === 'owner')).toBe(true);
    expect(JSON.stringify(activity.body)).not.toContain('hello');
    expect((await callJson(server.url, '/activity?transport=smtp', owner)).status).toBe(400);
  });
});
