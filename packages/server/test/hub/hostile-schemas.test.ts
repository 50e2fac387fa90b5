import { afterEach, expect, it } from 'vitest';
import { call, type OwnerSession, signIn } from '../owner/owner-client.js';
import { type ForeignMcpServer, startForeignMcpServer } from './support/foreign-mcp-server.js';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';
import { rowCounts } from './support/rows.js';

let server: HubTestServer | undefined;
let foreign: ForeignMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  await foreign?.close();
  server = undefined;
  foreign = undefined;
});

/** Exponential for a backtracking engine: 29 characters held the event loop for 2.4 s. */
const CATASTROPHIC = '^(a+)+$';
const HOSTILE = `${'a'.repeat(30)}!`;
const schemaWith = (pattern: string) => ({
  type: 'object',
  properties: { q: { type: 'string', pattern } },
  required: ['q'],
});
const hostileSchema = schemaWith(CATASTROPHIC);
/** The same work with a pattern any engine runs at once: the baseline of each comparison. */
const plainSchema = schemaWith('^[a-z]+$');

/** One `/healthz` and one owner read side by side; how long both took, in milliseconds. */
async function probe(owner: OwnerSession): Promise<number> {
  const started = performance.now();
  const [health, session] = await Promise.all([
    fetch(`${server!.url}/healthz`),
    call(server!.url, '/session', owner),
  ]);
  expect(health.status).toBe(200);
  expect(session.status).toBe(200);
  await Promise.all([health.arrayBuffer(), session.arrayBuffer()]);
  return performance.now() - started;
}

/** The slowest of back-to-back probes while `action` runs (at least three probes). */
async function slowestProbeDuring<T>(owner: OwnerSession, action: () => Promise<T>): Promise<[T, number]> {
  let settled = false;
  const running = action().finally(() => {
    settled = true;
  });
  let slowest = 0;
  let probes = 0;
  while (!settled || probes < 3) {
    slowest = Math.max(slowest, await probe(owner));
    probes += 1;
  }
  return [await running, slowest];
}

/**
 * `/healthz` and an owner read answer as fast while the hostile action runs as while the same
 * action with a harmless pattern runs, in this test's own run. The server shares this process's
 * event loop, so a check that blocks it delays the probe in flight by the whole block. The factor
 * is generous: a loaded machine varies by a few times, a blocked loop by orders of magnitude.
 */
async function expectLoopFree<T>(
  owner: OwnerSession,
  plain: () => Promise<unknown>,
  hostile: () => Promise<T>,
): Promise<T> {
  const [, before] = await slowestProbeDuring(owner, plain);
  const [result, during] = await slowestProbeDuring(owner, hostile);
  expect(during).toBeLessThan(before * 20);
  return result;
}

async function mcpAssistant(tools: Parameters<typeof startForeignMcpServer>[0], consensus = {}) {
  foreign = await startForeignMcpServer(tools);
  return server!.createAssistant({
    name: 'Foreign MCP',
    model: { provider: 'scripted', id: 'test' },
    allowedOrigins: [server!.pageOrigin],
    serverTools: { mcpServers: [{ name: 'foreign', url: foreign.url }], consensus },
  });
}

describeOnDialects('a JSON Schema from outside is checked at a bounded cost', () => {
  it('answers /healthz and the owner while a page intent’s catastrophic pattern meets a long argument', async () => {
    server = await startHubServer({
      script: [
        { toolCalls: [{ toolName: 'browser_find', input: { q: HOSTILE } }] },
        { text: 'Refused.' },
        { toolCalls: [{ toolName: 'browser_find', input: { q: HOSTILE } }] },
        { text: 'Refused.' },
      ],
    });
    const owner = await signIn(server.url);
    const turnWith = (schema: Record<string, unknown>) => async () => {
      const { client, conversation, stream } = await server!.visit();
      await client.send(conversation, {
        text: 'find it',
        registry: { tools: [], intents: [{ name: 'find', description: 'Find.', schema }] },
      });
      await stream.until('turn.done');
      return stream;
    };
    const stream = await expectLoopFree(owner, turnWith(plainSchema), turnWith(hostileSchema));
    // A clear refusal to the model, and no interrupt reached the page.
    expect(JSON.stringify(server.model.calls[3]!.prompt)).toContain(
      'invalid_input: arguments.q must match pattern \\"^(a+)+$\\".',
    );
    expect(stream.ofType('interrupt')).toEqual([]);
  });

  it('refuses a page intent whose pattern the linear engine cannot run, before anything is stored', async () => {
    server = await startHubServer({ script: [{ text: 'never' }] });
    const { client, conversation } = await server.visit();
    const before = await rowCounts(server.store);
    const reply = await client.send(conversation, {
      text: 'find it',
      registry: {
        tools: [],
        intents: [{ name: 'find', description: 'Find.', schema: { type: 'string', pattern: '^(a+)\\1$' } }],
      },
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      error: {
        code: 'invalid_input',
        message: expect.stringMatching(
          /^body\.registry\.intents\[0\]\.schema has the pattern .* which a linear-time regular expression engine cannot run/,
        ),
      },
    });
    expect(await rowCounts(server.store)).toEqual(before);
    expect(server.model.calls).toEqual([]);
  });

  it('checks an MCP server’s input schema linearly, and never offers a tool whose schema it cannot bound', async () => {
    server = await startHubServer({
      // The foreign MCP server listens on loopback: the operator's opt-in lets the hub reach it.
      hub: { fetchPrivate: true },
      script: [
        { toolCalls: [{ toolName: 'foreign__plain', input: { q: HOSTILE } }] },
        { text: 'Refused.' },
        { toolCalls: [{ toolName: 'foreign__find', input: { q: HOSTILE } }] },
        { text: 'Refused.' },
      ],
    });
    const assistant = await mcpAssistant([
      { name: 'plain', inputSchema: plainSchema },
      { name: 'find', inputSchema: hostileSchema },
      { name: 'echo', inputSchema: schemaWith('(a)\\1') },
      {
        name: 'when',
        inputSchema: { type: 'object', properties: { at: { type: 'string', format: 'duration' } } },
      },
    ]);
    const owner = await signIn(server.url);
    const turn = async () => {
      const { client, conversation, stream } = await server!.visit(assistant);
      await client.send(conversation, { text: 'find it' });
      await stream.until('turn.done');
    };
    await expectLoopFree(owner, turn, turn);
    expect(server.model.calls[2]!.tools.sort()).toEqual(['foreign__find', 'foreign__plain']);
    expect(JSON.stringify(server.model.calls[3]!.prompt)).toContain(
      'invalid_input: arguments.q must match pattern \\"^(a+)+$\\".',
    );
    expect(foreign!.calls).toEqual([]);
  });

  it('checks an MCP server’s output schema linearly: a hostile result fails the call, not the hub', async () => {
    server = await startHubServer({
      // The foreign MCP server listens on loopback: the operator's opt-in lets the hub reach it.
      hub: { fetchPrivate: true },
      script: [
        { toolCalls: [{ toolName: 'foreign__plain', input: {} }] },
        { text: 'Failed.' },
        { toolCalls: [{ toolName: 'foreign__lookup', input: {} }] },
        { text: 'Failed.' },
      ],
    });
    const result = {
      content: [{ type: 'text' as const, text: 'result' }],
      structuredContent: { q: HOSTILE },
    };
    const assistant = await mcpAssistant([
      { name: 'plain', inputSchema: { type: 'object' }, outputSchema: plainSchema, result },
      { name: 'lookup', inputSchema: { type: 'object' }, outputSchema: hostileSchema, result },
    ]);
    const owner = await signIn(server.url);
    const turn = async () => {
      const { client, conversation, stream } = await server!.visit(assistant);
      await client.send(conversation, { text: 'look it up' });
      await stream.until('turn.done');
      return stream;
    };
    const stream = await expectLoopFree(owner, turn, turn);
    expect(foreign!.calls.map((each) => each.name)).toEqual(['plain', 'lookup']);
    const finished = stream.ofType('tool.finished').find((event) => event.tool === 'foreign__lookup');
    expect(finished).toMatchObject({ ok: false });
    expect(JSON.stringify(server.model.calls[3]!.prompt)).not.toContain(HOSTILE.slice(0, 30));
  });

  it('checks a visitor’s edit at approval linearly, and refuses it with nothing changed', async () => {
    server = await startHubServer({
      // The foreign MCP server listens on loopback: the operator's opt-in lets the hub reach it.
      hub: { fetchPrivate: true },
      script: [
        // The first conversation stays waiting on its approval: the second takes the next step.
        { toolCalls: [{ toolName: 'foreign__plain', input: { q: 'aaa' } }] },
        { toolCalls: [{ toolName: 'foreign__find', input: { q: 'aaa' } }] },
        { text: 'Done.' },
      ],
    });
    const assistant = await mcpAssistant(
      [
        { name: 'plain', inputSchema: plainSchema },
        { name: 'find', inputSchema: hostileSchema },
      ],
      { foreign__plain: 'high', foreign__find: 'high' },
    );
    const owner = await signIn(server.url);
    /** A pending approval, then an edit with the long argument, with what was stored just before it. */
    const editRefused = async () => {
      const { client, conversation, stream } = await server!.visit(assistant);
      await client.send(conversation, { text: 'find it' });
      const { request } = await stream.until('consensus.requested');
      const rows = await rowCounts(server!.store);
      const events = stream.events.length;
      const refused = await client.decide(request.id, {
        decision: 'edit',
        argsDigest: request.argsDigest,
        args: { q: HOSTILE },
      });
      return { client, stream, request, rows, events, refused };
    };
    const hostile = await expectLoopFree(owner, editRefused, editRefused);
    expect(hostile.request.tool).toBe('foreign__find');
    expect(hostile.refused.status).toBe(400);
    expect(hostile.refused.body).toMatchObject({
      error: { code: 'invalid_input', message: 'arguments.q must match pattern "^(a+)+$".' },
    });
    expect(await rowCounts(server.store)).toEqual(hostile.rows);
    expect(hostile.stream.events.length).toBe(hostile.events);
    expect(foreign!.calls).toEqual([]);
    // The request is still pending: the model's own arguments can still be approved.
    expect(
      (
        await hostile.client.decide(hostile.request.id, {
          decision: 'approve',
          argsDigest: hostile.request.argsDigest,
        })
      ).status,
    ).toBe(200);
    await hostile.stream.until('turn.done');
    expect(foreign!.calls).toEqual([{ name: 'find', arguments: { q: 'aaa' } }]);
  });
});
