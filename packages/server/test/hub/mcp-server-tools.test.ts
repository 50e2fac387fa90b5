import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describeOnDialects('external MCP servers as server tools', () => {
  it('lists and calls an MCP server’s tools with the official client; its token never reaches the model', async () => {
    server = await startHubServer({
      hub: { fetchPrivate: true },
      script: (call) =>
        call.index === 0
          ? { toolCalls: [{ toolName: 'diosc__items_list', input: { collection: 'notes', limit: 2 } }] }
          : { text: 'Listed.' },
    });
    // A real MCP server over loopback: this very server's /mcp, with an exact grant.
    const { connection, token } = await server.app.diosc.connections.createMcp(server.accountId, {
      displayName: 'Hub test',
      grant: [{ collection: 'notes', functions: ['items_list'] }],
      provenance: 'test',
    });
    const assistant = await server.createAssistant({
      name: 'MCP assistant',
      model: { provider: 'scripted', id: 'test' },
      allowedOrigins: [server.pageOrigin],
      serverTools: { mcpServers: [{ name: 'diosc', url: `${server.url}/mcp` }] },
      secrets: { mcpTokens: { diosc: token } },
    });
    const { client, conversation, stream } = await server.visit(assistant);
    await client.send(conversation, { text: 'List my notes' });
    await stream.until('turn.done');

    expect(server.model.calls[0]!.tools.sort()).toEqual(['diosc__collections_list', 'diosc__items_list']);
    const finished = stream.ofType('tool.finished').find((event) => event.tool === 'diosc__items_list');
    expect(finished).toMatchObject({ ok: true });
    const prompt = JSON.stringify(server.model.calls[1]!.prompt);
    expect(prompt).toContain('"items":[');
    expect(prompt).not.toContain(token);
    expect(JSON.stringify(stream.events)).not.toContain(token);
    // The call went through /mcp as that connection: a usage row names it.
    await server.app.diosc.usage.flush();
    const usage = await server.store.db
      .selectFrom('usage')
      .select(['tool', 'outcome', 'transport'])
      .where('connection_id', '=', connection.id)
      .execute();
    expect(usage).toContainEqual({ tool: 'items_list', outcome: 'ok', transport: 'http_mcp' });
    // The stored secrets are sealed: no token in any assistant row.
    const rows = await server.store.db.selectFrom('hub_assistants').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('goes on without the tools of a server it cannot reach', async () => {
    server = await startHubServer({ hub: { fetchPrivate: true }, script: [{ text: 'No tools today.' }] });
    const assistant = await server.createAssistant({
      name: 'Unreachable',
      model: { provider: 'scripted', id: 'test' },
      allowedOrigins: [server.pageOrigin],
      serverTools: { mcpServers: [{ name: 'gone', url: 'http://127.0.0.1:9/mcp' }] },
    });
    const { client, conversation, stream } = await server.visit(assistant);
    await client.send(conversation, { text: 'hi' });
    await stream.until('turn.done');
    expect(server.model.calls[0]!.tools).toEqual([]);
  });
});
