import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDialects, type HubTestServer, startHubServer } from '../../hub/support/hub-server.js';
import { callJson, type OwnerSession, signIn } from '../owner-client.js';

interface View {
  id: string;
  name: string;
  secrets: { providerKey: { set: boolean } };
  serverTools: {
    account: { grant: unknown; connectionId: string | null } | null;
    mcpServers: { name: string; token: { set: boolean } }[];
  };
  [key: string]: unknown;
}

describeOnDialects('assistant admin: create, read, change, delete', () => {
  let server: HubTestServer;
  let owner: OwnerSession;
  beforeAll(async () => {
    server = await startHubServer();
    owner = await signIn(server.url);
  });
  afterAll(() => server.close());

  it('creates an assistant whose key is stored sealed and shown only as set', async () => {
    const created = await callJson<{ assistant: View }>(server.url, '/assistants', owner, {
      body: {
        name: 'Shop helper',
        model: { provider: 'openai', id: 'gpt-4o-mini' },
        providerKey: 'sk-proj-created-key-123',
        allowedOrigins: ['https://shop.example'],
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['items_list'] }] },
          mcpServers: [{ name: 'crm', url: 'https://crm.example/mcp', token: 'mcp-token-created' }],
        },
      },
    });
    expect(created.status).toBe(201);
    const { assistant } = created.body;
    expect(assistant.secrets.providerKey).toEqual({ set: true });
    expect(assistant.serverTools.mcpServers).toEqual([
      { name: 'crm', url: 'https://crm.example/mcp', token: { set: true } },
    ]);
    expect(assistant.serverTools.account?.connectionId).toMatch(/^con_|./);
    const row = await server.store.db
      .selectFrom('hub_assistants')
      .selectAll()
      .where('id', '=', assistant.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('sk-proj-created-key-123');
    expect(JSON.stringify(row)).not.toContain('mcp-token-created');
    const listed = await callJson<{ assistants: View[] }>(server.url, '/assistants', owner);
    expect(listed.body.assistants.map((a) => a.name)).toContain('Shop helper');
    const connections = await callJson<{ connections: { id: string; provenance: string }[] }>(
      server.url,
      '/connections',
      owner,
    );
    expect(connections.body.connections).toContainEqual(
      expect.objectContaining({ id: assistant.serverTools.account?.connectionId, provenance: 'assistant' }),
    );
  });
});
