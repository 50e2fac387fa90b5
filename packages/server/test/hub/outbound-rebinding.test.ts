import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import type { OutboundLookup } from '../../src/hub/outbound/guarded-fetch.js';
import { isPublicAddress } from '../../src/hub/outbound/public-address.js';
import { type FakeUpstream, startFakeUpstream } from '../owner/assistants/fake-upstream.js';
import { type AdminHarness, codeOf, startAdmin } from '../owner/assistants/support.js';
import { type HostileMcpServer, startHostileMcpServer } from './support/hostile-mcp-server.js';
import { describeOnDialects } from './support/hub-server.js';

/**
 * Every outbound connection to an owner-given URL — the MCP check, the MCP connection a turn
 * opens, an assistant's model base URL — goes through the guard, which resolves the name afresh
 * for each connection and refuses a non-public answer. DNS rebinding for real: a resolver seam that
 * answers a "public" address (127.0.0.2, which this test alone counts as public, where a stand-in
 * MCP server listens) and later 127.0.0.1, where a victim server on the same port counts every
 * request it gets. The name is `localhost`, so without the guard the system resolver would take
 * the connection to the victim.
 */
const TOKEN = 'mcp-rebind-token-0123456789';
const STAND_IN = '127.0.0.2';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: { stream, level: 'trace' } };
}

function resolver(initial: string) {
  const state = { answer: initial, lookups: [] as string[] };
  const lookup: OutboundLookup = (hostname, _options, callback) => {
    state.lookups.push(`${hostname} -> ${state.answer}`);
    callback(null, [{ address: state.answer, family: 4 }]);
  };
  const isPublic = (address: string) => address === STAND_IN || isPublicAddress(address);
  return { state, outbound: { lookup, isPublic } };
}

let admin: AdminHarness | undefined;
const servers: (HostileMcpServer | FakeUpstream)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await admin?.server.close();
  admin = undefined;
});

/** A stand-in "public" MCP server on 127.0.0.2 and a victim on 127.0.0.1, on one port. */
async function standInAndVictim(standInOptions: Parameters<typeof startHostileMcpServer>[0] = {}) {
  const standIn = await startHostileMcpServer({ host: STAND_IN, ...standInOptions });
  const victim = await startHostileMcpServer({ host: '127.0.0.1', port: standIn.port });
  servers.push(standIn, victim);
  return { standIn, victim, url: `http://localhost:${standIn.port}/mcp` };
}

describeOnDialects('outbound connections at turn time', () => {
  it('refuses a name that answered public at check time and 127.0.0.1 at turn time; the victim hears nothing', async () => {
    const log = capture();
    const { state, outbound } = resolver(STAND_IN);
    admin = await startAdmin({ hub: { fetchPrivate: false, outbound }, logger: log.logger });
    const { standIn, victim, url } = await standInAndVictim();
    const assistant = await admin.server.createAssistant({
      name: 'Rebinding',
      model: { provider: 'scripted', id: 'test' },
      allowedOrigins: [admin.server.pageOrigin],
      serverTools: { mcpServers: [{ name: 'rebind', url }] },
      secrets: { mcpTokens: { rebind: TOKEN } },
    });
    // Check time: the owner's check resolves the name to the "public" stand-in and lists its tools.
    const checked = await admin.api<{ ok: boolean; tools: unknown[] }>(`/${assistant.id}/mcp-check`, {
      body: { name: 'rebind' },
    });
    expect(checked.body).toMatchObject({ ok: true });
    expect(checked.body.tools).toHaveLength(4);
    expect(standIn.requests.length).toBeGreaterThan(0);

    // The name now answers this machine; kept-alive connections are gone, as after a pause.
    standIn.dropConnections();
    state.answer = '127.0.0.1';
    const before = state.lookups.length;
    const { client, conversation, stream } = await admin.server.visit(assistant);
    await client.send(conversation, { text: 'hi' });
    await stream.until('turn.done');

    expect(victim.requests).toEqual([]);
    expect(state.lookups.slice(before)).toContain('localhost -> 127.0.0.1');
    expect(admin.server.model.calls[0]!.tools).toEqual([]);
    const refusal = log.lines.find((line) => line.includes('MCP server unavailable'));
    expect(refusal).toBeDefined();
    expect(JSON.parse(refusal!)).toMatchObject({ server: 'rebind', code: 'fetch_refused' });
    // The owner's check, asked again, is refused the same way, with the stable code.
    const again = await admin.api(`/${assistant.id}/mcp-check`, { body: { name: 'rebind' } });
    expect(again.status).toBe(403);
    expect(codeOf(again.body)).toBe('fetch_refused');
    expect(victim.requests).toEqual([]);
    stream.close();
  });

  it('refuses a tool call whose new connection finds the name rebound mid-turn, with fetch_refused for the model', async () => {
    const { state, outbound } = resolver(STAND_IN);
    admin = await startAdmin({
      hub: { fetchPrivate: false, outbound },
      script: (call) => {
        if (call.index !== 0) return { text: 'Done.' };
        // The tools were listed from the stand-in; the name answers this machine from now on.
        state.answer = '127.0.0.1';
        return { toolCalls: [{ toolName: 'rebind__echo_result', input: {} }] };
      },
    });
    const { standIn, victim, url } = await standInAndVictim({ closeEach: true });
    const assistant = await admin.server.createAssistant({
      name: 'Rebound mid-turn',
      model: { provider: 'scripted', id: 'test' },
      allowedOrigins: [admin.server.pageOrigin],
      serverTools: { mcpServers: [{ name: 'rebind', url }] },
      secrets: { mcpTokens: { rebind: TOKEN } },
    });
    const { client, conversation, stream } = await admin.server.visit(assistant);
    await client.send(conversation, { text: 'hi' });
    await stream.until('turn.done');

    expect(victim.requests).toEqual([]);
    expect(standIn.requests.length).toBeGreaterThan(0);
    expect(admin.server.model.calls[0]!.tools).toContain('rebind__echo_result');
    expect(stream.ofType('tool.finished')).toEqual([
      expect.objectContaining({ tool: 'rebind__echo_result', ok: false, summary: 'fetch_refused' }),
    ]);
    expect(JSON.stringify(admin.server.model.calls[1]!.prompt)).toContain(
      'fetch_refused: localhost resolves',
    );
    stream.close();
  });

  it('refuses a turn-time redirect from a public server to this machine; the victim hears nothing', async () => {
    const log = capture();
    const { outbound } = resolver(STAND_IN);
    admin = await startAdmin({ hub: { fetchPrivate: false, outbound }, logger: log.logger });
    let victimPort = 0;
    const { standIn, victim, url } = await standInAndVictim({
      onRequest: (_request, response) => {
        response.writeHead(307, { location: `http://127.0.0.1:${victimPort}/mcp` }).end();
        return false;
      },
    });
    victimPort = victim.port;
    const assistant = await admin.server.createAssistant({
      name: 'Redirecting',
      model: { provider: 'scripted', id: 'test' },
      allowedOrigins: [admin.server.pageOrigin],
      serverTools: { mcpServers: [{ name: 'redirect', url }] },
      secrets: { mcpTokens: { redirect: TOKEN } },
    });
    const { client, conversation, stream } = await admin.server.visit(assistant);
    await client.send(conversation, { text: 'hi' });
    await stream.until('turn.done');

    expect(victim.requests).toEqual([]);
    expect(standIn.requests.length).toBeGreaterThan(0);
    expect(admin.server.model.calls[0]!.tools).toEqual([]);
    const refusal = log.lines.find((line) => line.includes('MCP server unavailable'));
    expect(JSON.parse(refusal!)).toMatchObject({ server: 'redirect', code: 'fetch_refused' });
    stream.close();
  });

  it('refuses an assistant’s model base URL that resolves to this machine, in a turn and in the owner’s test', async () => {
    admin = await startAdmin({ hub: { fetchPrivate: false } });
    const upstream = await startFakeUpstream(() => ({ status: 200, body: '{}' }));
    servers.push(upstream);
    const port = new URL(upstream.url).port;
    const assistant = await admin.server.createAssistant({
      name: 'Local provider',
      model: { provider: 'openai-compatible', id: 'llama3.2', baseUrl: `http://localhost:${port}/v1` },
      allowedOrigins: [admin.server.pageOrigin],
      secrets: { providerKey: 'provider-key-0123456789' },
    });
    const { client, conversation, stream } = await admin.server.visit(assistant);
    await client.send(conversation, { text: 'hello' });
    const failed = await stream.until('turn.failed');
    expect(failed.error.code).toBe('fetch_refused');
    expect(failed.error.message).toMatch(/not public/);
    const tested = await admin.api<{ ok: boolean; error?: { code: string } }>(
      `/${assistant.id}/test-connection`,
      { body: {} },
    );
    expect(tested.body).toMatchObject({ ok: false, error: { code: 'fetch_refused' } });
    expect(upstream.requests).toEqual([]);
    stream.close();
  });
});
