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
const HOSTILE = `${'a'.repeat(29)}!`;
const hostileSchema = {
  type: 'object',
  properties: { q: { type: 'string', pattern: CATASTROPHIC } },
  required: ['q'],
};

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

/**
 * The slowest of back-to-back probes while `action` runs, against the slowest of the same probes
 * before it, in this test's own run. The server shares this process's event loop, so a check that
 * blocks it delays the probe in flight by the whole block. The factor is generous: a loaded machine
 * varies, a blocked loop is off by orders of magnitude.
 */
async function expectLoopFreeDuring<T>(owner: OwnerSession, action: () => Promise<T>): Promise<T> {
  let before = 0;
  for (let i = 0; i < 5; i++) before = Math.max(before, await probe(owner));
  let settled = false;
  const running = action().finally(() => {
    settled = true;
  });
  let during = 0;
  let probes = 0;
  while (!settled || probes < 3) {
    during = Math.max(during, await probe(owner));
    probes += 1;
  }
  expect(during).toBeLessThan(before * 10);
  return running;
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
      script: [{ toolCalls: [{ toolName: 'browser_find', input: { q: HOSTILE } }] }, { text: 'Refused.' }],
    });
    const owner = await signIn(server.url);
    const { client, conversation, stream } = await server.visit();
    await expectLoopFreeDuring(owner, async () => {
      await client.send(conversation, {
        text: 'find it',
        registry: { tools: [], intents: [{ name: 'find', description: 'Find.', schema: hostileSchema }] },
      });
      await stream.until('turn.done');
    });
    // A clear refusal to the model, and no interrupt reached the page.
    expect(JSON.stringify(server.model.calls[1]!.prompt)).toContain(
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
      script: [{ toolCalls: [{ toolName: 'foreign__find', input: { q: HOSTILE } }] }, { text: 'Refused.' }],
    });
    const assistant = await mcpAssistant([
      { name: 'find', inputSchema: hostileSchema },
      {
        name: 'echo',
        inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '(a)\\1' } } },
      },
      {
        name: 'when',
        inputSchema: { type: 'object', properties: { at: { type: 'string', format: 'duration' } } },
      },
    ]);
    const owner = await signIn(server.url);
    const { client, conversation, stream } = await server.visit(assistant);
    await expectLoopFreeDuring(owner, async () => {
      await client.send(conversation, { text: 'find it' });
      await stream.until('turn.done');
    });
    expect(server.model.calls[0]!.tools).toEqual(['foreign__find']);
    expect(JSON.stringify(server.model.calls[1]!.prompt)).toContain(
      'invalid_input: arguments.q must match pattern \\"^(a+)+$\\".',
    );
    expect(foreign!.calls).toEqual([]);
  });

  it('checks an MCP server’s output schema linearly: a hostile result fails the call, not the hub', async () => {
    server = await startHubServer({
      script: [{ toolCalls: [{ toolName: 'foreign__lookup', input: {} }] }, { text: 'Failed.' }],
    });
    const assistant = await mcpAssistant([
      {
        name: 'lookup',
        inputSchema: { type: 'object' },
        outputSchema: hostileSchema,
        result: { content: [{ type: 'text', text: 'result' }], structuredContent: { q: HOSTILE } },
      },
    ]);
    const owner = await signIn(server.url);
    const { client, conversation, stream } = await server.visit(assistant);
    await expectLoopFreeDuring(owner, async () => {
      await client.send(conversation, { text: 'look it up' });
      await stream.until('turn.done');
    });
    expect(foreign!.calls).toHaveLength(1);
    const finished = stream.ofType('tool.finished').find((event) => event.tool === 'foreign__lookup');
    expect(finished).toMatchObject({ ok: false });
    expect(JSON.stringify(server.model.calls[1]!.prompt)).not.toContain(HOSTILE.slice(0, 29));
  });

  it('checks a visitor’s edit at approval linearly, and refuses it with nothing changed', async () => {
    server = await startHubServer({
      script: [{ toolCalls: [{ toolName: 'foreign__find', input: { q: 'aaa' } }] }, { text: 'Done.' }],
    });
    const assistant = await mcpAssistant([{ name: 'find', inputSchema: hostileSchema }], {
      foreign__find: 'high',
    });
    const owner = await signIn(server.url);
    const { client, conversation, stream } = await server.visit(assistant);
    await client.send(conversation, { text: 'find it' });
    const { request } = await stream.until('consensus.requested');
    const before = await rowCounts(server.store);
    const eventsBefore = stream.events.length;
    const reply = await expectLoopFreeDuring(owner, () =>
      client.decide(request.id, { decision: 'edit', argsDigest: request.argsDigest, args: { q: HOSTILE } }),
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      error: { code: 'invalid_input', message: 'arguments.q must match pattern "^(a+)+$".' },
    });
    expect(await rowCounts(server.store)).toEqual(before);
    expect(stream.events.length).toBe(eventsBefore);
    expect(foreign!.calls).toEqual([]);
    // The request is still pending: the model's own arguments can still be approved.
    expect(
      (await client.decide(request.id, { decision: 'approve', argsDigest: request.argsDigest })).status,
    ).toBe(200);
    await stream.until('turn.done');
    expect(foreign!.calls).toEqual([{ name: 'find', arguments: { q: 'aaa' } }]);
  });
});
