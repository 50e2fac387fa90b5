import type { AssistantView } from '@diosc/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '../../hub/support/hub-server.js';
import { type AdminHarness, codeOf, startAdmin } from './support.js';

const KEY = 'sk-proj-created-key-0123456789';
const NEW_KEY = 'sk-proj-replaced-key-9876543210';
const MCP_TOKEN = 'mcp-token-created-abcdef';
const IDENTITY_SECRET = 'identity-secret-of-at-least-32-characters!';

describeOnDialects('assistant admin: create, read, change, delete', () => {
  let admin: AdminHarness;
  let id: string;
  beforeAll(async () => {
    admin = await startAdmin();
  });
  afterAll(async () => {
    // No provider key or MCP token in any body any test of this suite received.
    for (const body of admin.seen)
      for (const secret of [KEY, NEW_KEY, MCP_TOKEN, IDENTITY_SECRET]) expect(body).not.toContain(secret);
    expect(admin.seen.length).toBeGreaterThan(10);
    await admin.server.close();
  });

  const secretsOf = () => admin.server.app.diosc.hub!.services.assistants.secretsOf(id);
  const connection = async (connectionId: string) =>
    admin.server.store.db
      .selectFrom('app_connections')
      .selectAll()
      .where('id', '=', connectionId)
      .executeTakeFirstOrThrow();

  it('creates an assistant whose secrets are sealed and shown only as set', async () => {
    const created = await admin.api<{ assistant: AssistantView }>('', {
      body: {
        name: 'Shop helper',
        instructions: 'Help visitors.',
        model: { provider: 'openai', id: 'gpt-4o-mini' },
        providerKey: KEY,
        allowedOrigins: ['https://shop.example', 'http://127.0.0.1:8080'],
        limits: { maxStepsPerTurn: 5 },
        browserTools: [
          {
            name: 'highlight_row',
            description: 'Highlight a row.',
            inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          },
        ],
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['items_list'] }] },
          mcpServers: [{ name: 'crm', url: 'https://crm.example/mcp', token: MCP_TOKEN }],
          generateFile: { enabled: true, formats: ['csv'] },
          consensus: { crm__delete: 'high' },
        },
        sitemap: [{ path: '/products/:id', title: 'Product' }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const { assistant } = created.body;
    id = assistant.id;
    expect(assistant).toMatchObject({
      name: 'Shop helper',
      publishableKey: expect.stringMatching(/^pk_/),
      model: { provider: 'openai', id: 'gpt-4o-mini' },
      secrets: { providerKey: { set: true }, identitySecret: { set: false } },
      limits: { maxStepsPerTurn: 5, messagesPerMinute: 20 },
      serverTools: {
        mcpServers: [{ name: 'crm', url: 'https://crm.example/mcp', token: { set: true } }],
        generateFile: { enabled: true, formats: ['csv'], maxBytes: 1024 * 1024 },
        consensus: { crm__delete: 'high' },
      },
    });
    expect(await secretsOf()).toEqual({ providerKey: KEY, mcpTokens: { crm: MCP_TOKEN } });
    const row = await admin.server.store.db
      .selectFrom('hub_assistants')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(KEY);
    expect(JSON.stringify(row)).not.toContain(MCP_TOKEN);

    // The grant's app connection is listed in Connected apps, provenance `assistant`.
    const connectionId = assistant.serverTools.account!.connectionId!;
    const connections = await admin.as<{ connections: { id: string; provenance: string }[] }>(
      admin.owner,
      '/../connections',
    );
    expect(connections.body.connections).toContainEqual(
      expect.objectContaining({ id: connectionId, provenance: 'assistant' }),
    );
  });

  it("keeps outside links off unless set, and the visitor's view of the assistant carries the setting", async () => {
    const before = await admin.api<{ assistant: AssistantView }>(`/${id}`);
    expect(before.body.assistant.outsideLinks).toBe(false);
    const changed = await admin.api<{ assistant: AssistantView }>(`/${id}`, {
      method: 'PATCH',
      body: { outsideLinks: true },
    });
    expect(changed.body.assistant.outsideLinks).toBe(true);
    const record = (await admin.server.app.diosc.hub!.services.assistants.find(id))!;
    const visitor = admin.server.client('https://shop.example');
    expect((await visitor.open(record.publishableKey)).assistant.outsideLinks).toBe(true);
    const rowsBefore = await admin.snapshot();
    const refused = await admin.api(`/${id}`, { method: 'PATCH', body: { outsideLinks: 'yes' } });
    expect(codeOf(refused.body)).toBe('invalid_input');
    expect(await admin.snapshot()).toBe(rowsBefore);
    await admin.api(`/${id}`, { method: 'PATCH', body: { outsideLinks: false } });
  });

  it('reads and lists, never with a secret', async () => {
    const read = await admin.api<{ assistant: AssistantView }>(`/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.assistant.secrets.providerKey).toEqual({ set: true });
    const listed = await admin.api<{ assistants: AssistantView[] }>('');
    expect(listed.body.assistants.map((a) => a.name).sort()).toEqual(['Shop helper', 'Test assistant']);
  });

  it('sets and clears the identity secret, shown only as set', async () => {
    const set = await admin.api<{ assistant: AssistantView }>(`/${id}`, {
      method: 'PATCH',
      body: { identitySecret: IDENTITY_SECRET },
    });
    expect(set.body.assistant.secrets.identitySecret).toEqual({ set: true });
    expect((await secretsOf()).identitySecret).toBe(IDENTITY_SECRET);
    const short = await admin.api(`/${id}`, { method: 'PATCH', body: { identitySecret: 'too short' } });
    expect(codeOf(short.body)).toBe('invalid_input');
    const cleared = await admin.api<{ assistant: AssistantView }>(`/${id}`, {
      method: 'PATCH',
      body: { identitySecret: null },
    });
    expect(cleared.body.assistant.secrets.identitySecret).toEqual({ set: false });
    expect((await secretsOf()).identitySecret).toBeUndefined();
  });

  it('replaces a key, keeps the MCP token by name, and clears both with null', async () => {
    const replaced = await admin.api<{ assistant: AssistantView }>(`/${id}`, {
      method: 'PATCH',
      body: {
        providerKey: NEW_KEY,
        serverTools: { mcpServers: [{ name: 'crm', url: 'https://crm2.example/mcp' }] },
      },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.assistant.serverTools.mcpServers).toEqual([
      { name: 'crm', url: 'https://crm2.example/mcp', token: { set: true } },
    ]);
    // Untouched fields keep their value.
    expect(replaced.body.assistant.sitemap).toEqual([{ path: '/products/:id', title: 'Product' }]);
    expect(await secretsOf()).toEqual({ providerKey: NEW_KEY, mcpTokens: { crm: MCP_TOKEN } });

    const cleared = await admin.api<{ assistant: AssistantView }>(`/${id}`, {
      method: 'PATCH',
      body: {
        providerKey: null,
        serverTools: { mcpServers: [{ name: 'crm', url: 'https://crm2.example/mcp', token: null }] },
      },
    });
    expect(cleared.body.assistant.secrets.providerKey).toEqual({ set: false });
    expect(cleared.body.assistant.serverTools.mcpServers[0]!.token).toEqual({ set: false });
    expect(await secretsOf()).toEqual({});

    await admin.api(`/${id}`, {
      method: 'PATCH',
      body: {
        serverTools: { mcpServers: [{ name: 'crm', url: 'https://crm2.example/mcp', token: MCP_TOKEN }] },
      },
    });
    // A server taken off the list takes its token with it.
    await admin.api(`/${id}`, { method: 'PATCH', body: { serverTools: { mcpServers: [] } } });
    expect(await secretsOf()).toEqual({});
  });

  it('changes the grant on the same connection, and revokes it when the catalog is removed', async () => {
    const before = (await admin.api<{ assistant: AssistantView }>(`/${id}`)).body.assistant;
    const connectionId = before.serverTools.account!.connectionId!;
    const generation = (await connection(connectionId)).grant_generation;
    const changed = await admin.api<{ assistant: AssistantView }>(`/${id}`, {
      method: 'PATCH',
      body: {
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['items_list', 'item_read'] }] },
        },
      },
    });
    expect(changed.body.assistant.serverTools.account).toEqual({
      grant: [{ collection: 'notes', functions: ['items_list', 'item_read'] }],
      connectionId,
    });
    const row = await connection(connectionId);
    expect(row.grant_generation).toBe(generation + 1);
    expect(JSON.parse(row.grant_json)).toEqual([
      { collection: 'notes', functions: ['items_list', 'item_read'] },
    ]);

    const removed = await admin.api<{ assistant: AssistantView }>(`/${id}`, {
      method: 'PATCH',
      body: { serverTools: { account: null } },
    });
    expect(removed.body.assistant.serverTools.account).toBeNull();
    expect((await connection(connectionId)).revoked_at).not.toBeNull();

    // Given again, the catalog gets a new connection; the revoked one stays revoked.
    const again = await admin.api<{ assistant: AssistantView }>(`/${id}`, {
      method: 'PATCH',
      body: { serverTools: { account: { grant: [{ collection: 'notes', functions: ['items_list'] }] } } },
    });
    const next = again.body.assistant.serverTools.account!.connectionId!;
    expect(next).not.toBe(connectionId);
    expect((await connection(next)).revoked_at).toBeNull();
  });

  it('refuses bad input on create and change with a stable code, writing nothing', async () => {
    const tool = { name: 'ok_tool', description: 'd', inputSchema: { type: 'object' } };
    const bad: [string, unknown][] = [
      ['unknown top-level field', { name: 'X', colour: 'red' }],
      ['unknown model field', { name: 'X', model: { provider: 'openai', id: 'm', apiKey: 'sk-x' } }],
      [
        'connectionId from the client',
        { name: 'X', serverTools: { account: { grant: [], connectionId: 'con_1' } } },
      ],
      [
        'unknown MCP server field',
        { name: 'X', serverTools: { mcpServers: [{ name: 'a', url: 'https://a.example', headers: {} }] } },
      ],
      ['unknown route field', { name: 'X', sitemap: [{ path: '/', title: 'Home', weight: 1 }] }],
      ['unknown limit', { name: 'X', limits: { maxTokens: 5 } }],
      ['unknown tool field', { name: 'X', browserTools: [{ ...tool, handler: 'x' }] }],
      ['an origin with a path', { name: 'X', allowedOrigins: ['https://shop.example/app'] }],
      ['an origin with a trailing slash', { name: 'X', allowedOrigins: ['https://shop.example/'] }],
      ['a wildcard origin', { name: 'X', allowedOrigins: ['*'] }],
      ['an origin with a default port', { name: 'X', allowedOrigins: ['https://shop.example:443'] }],
      ['an origin in capitals', { name: 'X', allowedOrigins: ['https://Shop.example'] }],
      ['an origin with a port out of range', { name: 'X', allowedOrigins: ['https://shop.example:99999'] }],
      [
        'a schema that does not compile',
        { name: 'X', browserTools: [{ ...tool, inputSchema: { type: 'nope' } }] },
      ],
      ['two tools with one name', { name: 'X', browserTools: [tool, tool] }],
      ['a bad route pattern', { name: 'X', sitemap: [{ path: 'products', title: 'P' }] }],
      ['a limit out of range', { name: 'X', limits: { maxStepsPerTurn: 0 } }],
      [
        'a scripted model the server does not have',
        { name: 'X', model: { provider: 'scripted', id: 'demo' } },
      ],
      [
        'an openai-compatible model without a base URL',
        { name: 'X', model: { provider: 'openai-compatible', id: 'llama3.2' } },
      ],
      ['a key-shaped model id', { name: 'X', model: { provider: 'openai', id: 'sk-proj-0123456789abcdef' } }],
      [
        'a base URL with a password',
        {
          name: 'X',
          model: { provider: 'openai', id: 'gpt-4o-mini', baseUrl: 'https://u:p@llm.example/v1' },
        },
      ],
      ['a key of the wrong type', { name: 'X', providerKey: 42 }],
      ['an empty key', { name: 'X', providerKey: '' }],
      [
        'a grant on a collection that does not exist',
        {
          name: 'X',
          serverTools: { account: { grant: [{ collection: 'nope', functions: ['items_list'] }] } },
        },
      ],
      ['a name that is taken', { name: 'Test assistant' }],
      ['no name', { instructions: 'x' }],
      ['an array', []],
    ];
    for (const [what, body] of bad) {
      const before = await admin.snapshot();
      const created = await admin.api('', { body });
      expect([what, created.status, codeOf(created.body)]).toEqual([
        what,
        expect.any(Number),
        expect.any(String),
      ]);
      expect(created.status, what).toBeGreaterThanOrEqual(400);
      expect(created.status, what).toBeLessThan(500);
      expect(await admin.snapshot(), what).toBe(before);
      if (!Array.isArray(body) && (body as { name?: string }).name === 'X') {
        const { name: _name, ...patch } = body as Record<string, unknown>;
        if (Object.keys(patch).length === 0) continue;
        const changed = await admin.api(`/${id}`, { method: 'PATCH', body: patch });
        expect(changed.status, `PATCH ${what}`).toBeGreaterThanOrEqual(400);
        expect(changed.status, `PATCH ${what}`).toBeLessThan(500);
        expect(await admin.snapshot(), `PATCH ${what}`).toBe(before);
      }
    }
    const schema = await admin.api('', { body: { name: 'X', allowedOrigins: ['https://a.example/x'] } });
    expect(codeOf(schema.body)).toBe('invalid_input');
    expect((schema.body as { error: { message: string } }).error.message).toMatch(
      /^body\.allowedOrigins\.0 /,
    );
    const capitals = await admin.api('', { body: { name: 'X', allowedOrigins: ['https://Shop.example'] } });
    expect((capitals.body as { error: { message: string } }).error.message).toBe(
      'The origin "https://Shop.example" is not exact; write it as https://shop.example.',
    );
    const scripted = await admin.api('', {
      body: { name: 'X', model: { provider: 'scripted', id: 'demo' } },
    });
    expect(scripted.body).toEqual({
      error: {
        code: 'invalid_input',
        message: 'No scripted model named "demo" is registered; this server has "scripted-demo", "test".',
        retryable: false,
      },
    });
    // Without an id the scripted provider means the demo model, which every server has.
    const demo = await admin.api<{ assistant: AssistantView }>('', {
      body: { name: 'Scripted demo', model: { provider: 'scripted' } },
    });
    expect(demo.status).toBe(201);
    expect(demo.body.assistant.model).toEqual({ provider: 'scripted', id: 'scripted-demo' });
    expect((await admin.api(`/${demo.body.assistant.id}`, { method: 'DELETE' })).status).toBe(200);
    const grant = await admin.api('', {
      body: {
        name: 'X',
        serverTools: { account: { grant: [{ collection: 'nope', functions: ['items_list'] }] } },
      },
    });
    expect(codeOf(grant.body)).toBe('selection_invalid');
  });

  it('deletes the assistant and revokes its connection; its id then answers not_found', async () => {
    const before = (await admin.api<{ assistant: AssistantView }>(`/${id}`)).body.assistant;
    const deleted = await admin.api(`/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, deleted: true });
    expect(codeOf((await admin.api(`/${id}`)).body)).toBe('not_found');
    expect((await connection(before.serverTools.account!.connectionId!)).revoked_at).not.toBeNull();
    expect(codeOf((await admin.api(`/${id}`, { method: 'DELETE' })).body)).toBe('not_found');
  });
});
