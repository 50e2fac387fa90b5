import { HUB_BODY_SCHEMAS } from '@diosc/protocol';
import { afterEach, expect, it } from 'vitest';
import { deleteAssistant, updateAssistant } from '../../src/hub/assistant-admin/assistant-admin.js';
import { callJson, signIn } from '../owner/owner-client.js';
import { describeOnDialects, HubClient, type HubTestServer, startHubServer } from './support/hub-server.js';
import { rowCounts } from './support/rows.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const code = (body: unknown) => (body as { error?: { code?: string } }).error?.code;
const REGISTRY = { tools: ['read_page'], intents: [] };
const SECRETS = {
  providerKey: 'sk-provider-key-0123456789abcdef',
  identitySecret: 'identity-secret-0123456789abcdef0123456789',
  mcpTokens: { remote: 'mcp-token-0123456789abcdef' },
};
const INSTRUCTIONS = 'Private instructions: never mention the discount code PINEAPPLE.';

/** The documented error shape, with no-store: `{ error: { code, message, retryable } }` and nothing else. */
async function errorShape(response: Response): Promise<string | null> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('application/json')) return `content-type ${type}`;
  if (response.headers.get('cache-control') !== 'no-store') return 'no no-store';
  const body = (await response.json()) as { error?: Record<string, unknown> };
  const keys = Object.keys(body).join();
  const fields = Object.keys(body.error ?? {})
    .sort()
    .join();
  return keys === 'error' && fields === 'code,message,retryable' && typeof body.error?.message === 'string'
    ? null
    : `body ${JSON.stringify(body)}`;
}

type SchemaNode = Record<string, unknown>;
type HubBodyName = keyof typeof HUB_BODY_SCHEMAS;

/**
 * The data path of every object in a hub body schema that names its fields (free-form values —
 * a snapshot's data, an intent's JSON Schema, a result, tool args — have none to name).
 */
function namedObjects(schema: unknown, path: (string | 0)[] = []): (string | 0)[][] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as SchemaNode;
  const found: (string | 0)[][] = node.properties !== undefined ? [path] : [];
  for (const [name, sub] of Object.entries((node.properties ?? {}) as SchemaNode))
    found.push(...namedObjects(sub, [...path, name]));
  if (node.items !== undefined) found.push(...namedObjects(node.items, [...path, 0]));
  return found;
}

function withUnknownAt(sample: unknown, path: (string | 0)[]): unknown {
  const body = structuredClone(sample) as SchemaNode;
  let at = body;
  for (const key of path) at = (at as Record<string | number, unknown>)[key] as SchemaNode;
  at.zz_unknown = 1;
  return body;
}

const INTENT = {
  name: 'add_to_cart',
  description: 'Add',
  schema: { type: 'object' },
  approval: { severity: 'low' },
};
/** A body of each hub schema that reaches every one of its objects. */
const SAMPLES: Record<HubBodyName, unknown> = {
  emptyBody: {},
  openSession: { publishableKey: 'pk_0123456789' },
  sendMessage: {
    text: 'hi',
    snapshot: { url: 'https://shop.example/', title: 'Shop' },
    registry: { tools: ['read_page'], intents: [INTENT] },
  },
  interruptAnswer: {
    result: 1,
    snapshot: { url: 'https://shop.example/', title: 'Shop' },
    registry: { tools: [], intents: [INTENT] },
    file: {
      fileId: 'fil_1',
      filename: 'a.txt',
      format: 'txt',
      downloadUrl: '/api/hub/files/fil_1',
      sizeBytes: 1,
    },
    decision: { decision: 'edit', changed: ['id'], reason: 'why' },
  },
  consensusDecision: { decision: 'approve', argsDigest: 'a'.repeat(64) },
  agUiRun: {
    threadId: 'cnv_1',
    runId: 'run_1',
    state: {},
    forwardedProps: {},
    context: [],
    messages: [
      {
        id: 'm1',
        role: 'assistant',
        content: 'hi',
        toolCalls: [{ id: 'tc_1', type: 'function', function: { name: 'pick', arguments: '{}' } }],
      },
    ],
    tools: [{ name: 'pick', description: 'Pick', parameters: { type: 'object' } }],
    resume: [{ interruptId: 'tc_1', status: 'resolved', payload: { result: 1 }, metadata: {} }],
  },
};

describeOnDialects('hostile input: items 6–11, 15b, 15e', () => {
  it('GET /assistant answers the session’s assistant, public fields only, and only to its session', async () => {
    server = await startHubServer({
      assistant: {
        instructions: INSTRUCTIONS,
        serverTools: { mcpServers: [{ name: 'remote', url: 'http://127.0.0.1:9/mcp' }] },
        browserTools: [
          { name: 'highlight_row', description: 'Highlight a row', inputSchema: { type: 'object' } },
        ],
        secrets: SECRETS,
      },
    });
    const client = server.client();
    const opened = await client.open(server.assistant.publishableKey);
    const reply = await client.request('GET', '/assistant');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe(server.pageOrigin);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.body).toEqual(opened.assistant);
    expect(Object.keys(reply.body as object).sort()).toEqual([
      'browserTools',
      'files',
      'id',
      'modelLabel',
      'name',
      'outsideLinks',
    ]);
    const text = JSON.stringify(reply.body);
    for (const secret of [
      SECRETS.providerKey,
      SECRETS.identitySecret,
      SECRETS.mcpTokens.remote,
      'PINEAPPLE',
      '127.0.0.1:9',
      server.assistant.publishableKey,
    ]) {
      expect(text).not.toContain(secret);
    }

    // The owner's later change shows on the next read, without a new session.
    await updateAssistant(server.app.diosc, server.accountId, server.assistant.id, { name: 'Renamed' });
    expect(((await client.request('GET', '/assistant')).body as { name: string }).name).toBe('Renamed');

    const before = await rowCounts(server.store);
    const anonymous = new HubClient(server.url, server.pageOrigin);
    const none = await anonymous.request('GET', '/assistant');
    expect([none.status, code(none.body)]).toEqual([401, 'unauthenticated']);
    anonymous.token = 'vst_forged-token';
    expect(code((await anonymous.request('GET', '/assistant')).body)).toBe('unauthenticated');
    const elsewhere = new HubClient(server.url, 'http://evil.localhost:4173');
    elsewhere.token = client.token;
    const foreign = await elsewhere.request('GET', '/assistant');
    expect([foreign.status, code(foreign.body)]).toEqual([403, 'origin_not_allowed']);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(await rowCounts(server.store)).toEqual(before);

    // Deleted while the widget is open: its sessions go with it, so the token reaches nothing.
    await deleteAssistant(server.app.diosc, server.accountId, server.assistant.id);
    const gone = await client.request('GET', '/assistant');
    expect([gone.status, code(gone.body)]).toEqual([401, 'unauthenticated']);
  });

  it('answers every form of OPTIONS on every route family in the error shape, or as a real preflight', async () => {
    server = await startHubServer();
    const paths = [
      '/api/hub/sessions',
      '/api/hub/conversations/cnv_x/messages',
      '/api/hub/assistant',
      '/api/owner/assistants',
      '/api/owner/session',
      '/mcp',
      '/kit/diosc.js',
      '/healthz',
      '/',
      '/collections/notes',
    ];
    const forms: Record<string, string>[] = [
      {},
      { origin: server.pageOrigin },
      { origin: 'http://evil.localhost:4173' },
      { origin: 'null' },
      { origin: server.url },
      { 'access-control-request-method': 'POST' },
      { origin: 'http://evil.localhost:4173', 'access-control-request-method': 'POST' },
      { origin: server.pageOrigin, 'access-control-request-headers': 'authorization' },
      { origin: server.pageOrigin, 'access-control-request-method': 'POST' },
    ];
    const wrong: string[] = [];
    let preflights = 0;
    for (const path of paths) {
      for (const headers of forms) {
        const response = await fetch(`${server.url}${path}`, { method: 'OPTIONS', headers });
        const label = `${path} ${JSON.stringify(headers)}`;
        const preflight =
          path.startsWith('/api/hub/') &&
          headers.origin === server.pageOrigin &&
          headers['access-control-request-method'] !== undefined;
        if (preflight) {
          preflights++;
          if (response.status !== 204) wrong.push(`${label}: ${response.status}`);
          if (response.headers.get('access-control-allow-origin') !== server.pageOrigin)
            wrong.push(`${label}: no allow-origin`);
          await response.arrayBuffer();
          continue;
        }
        if (response.status < 400 || response.status >= 500) wrong.push(`${label}: ${response.status}`);
        const shape = await errorShape(response);
        if (shape) wrong.push(`${label}: ${shape}`);
        if (response.headers.get('access-control-allow-origin') !== null && !path.startsWith('/api/hub/'))
          wrong.push(`${label}: allow-origin outside the hub`);
      }
    }
    expect(wrong).toEqual([]);
    expect(preflights).toBe(3);
    // The form that used to answer 400 text/plain: a page's OPTIONS without a requested method.
    const plain = await fetch(`${server.url}/api/hub/sessions`, {
      method: 'OPTIONS',
      headers: { origin: server.pageOrigin },
    });
    expect([plain.status, code(await plain.json())]).toEqual([400, 'invalid_input']);
  });

  it('refuses a null body on POST /conversations and POST /turns/:id/cancel, changing nothing', async () => {
    server = await startHubServer({
      script: [{ toolCalls: [{ toolName: 'read_page', input: {} }] }, { text: 'Read it.' }],
    });
    const { client, conversation, stream } = await server.visit();
    const sent = await client.send(conversation, { text: 'Read the page', registry: REGISTRY });
    await stream.until('interrupt');
    const before = await rowCounts(server.store);
    for (const path of ['/conversations', `/turns/${sent.body.turnId}/cancel`]) {
      const reply = await client.request('POST', path, null);
      expect([path, reply.status, code(reply.body)]).toEqual([path, 400, 'invalid_input']);
      expect((reply.body as { error: { message: string } }).error.message).toBe(
        'The request body must be a JSON object.',
      );
    }
    expect(await rowCounts(server.store)).toEqual(before);
    const turn = await server.store.db
      .selectFrom('hub_turns')
      .select('status')
      .where('id', '=', sent.body.turnId)
      .executeTakeFirstOrThrow();
    expect(turn.status).not.toBe('cancelled');
    expect(stream.ofType('turn.cancelled')).toEqual([]);
    stream.close();
  });

  it('keeps < and > in a validation message on the wire (escaping is the renderer’s), and changes nothing', async () => {
    server = await startHubServer();
    const owner = await signIn(server.url);
    const path = `/assistants/${server.assistant.id}`;
    const before = await callJson(server.url, path, owner);
    for (const [limits, text] of [
      [{ maxStepsPerTurn: 999 }, 'must be <= 50'],
      [{ sessionTtlMs: 1 }, 'must be >= 60000'],
    ] as const) {
      const reply = await callJson<{ error: { code: string; message: string } }>(server.url, path, owner, {
        method: 'PATCH',
        body: { limits },
      });
      expect([reply.status, reply.body.error.code]).toEqual([400, 'invalid_input']);
      expect(reply.body.error.message).toContain(text);
    }
    expect((await callJson(server.url, path, owner)).body).toEqual(before.body);
  });

  it('refuses an unknown field at every depth of every hub body over real HTTP, changing nothing', async () => {
    server = await startHubServer({
      script: [{ toolCalls: [{ toolName: 'read_page', input: {} }] }, { text: 'Read it.' }],
    });
    const { client, conversation, stream } = await server.visit();
    const sent = await client.send(conversation, { text: 'Read the page', registry: REGISTRY });
    const { interrupt } = await stream.until('interrupt');
    const routes: [HubBodyName, string][] = [
      ['emptyBody', '/conversations'],
      ['emptyBody', `/turns/${sent.body.turnId}/cancel`],
      ['openSession', '/sessions'],
      ['sendMessage', `/conversations/${conversation}/messages`],
      ['interruptAnswer', `/interrupts/${interrupt.id}/answer`],
      ['consensusDecision', '/consensus/cns_x/decision'],
      ['agUiRun', '/ag-ui'],
    ];
    expect(new Set(routes.map(([name]) => name))).toEqual(new Set(Object.keys(HUB_BODY_SCHEMAS)));
    const before = await rowCounts(server.store);
    let sentCount = 0;
    for (const [name, path] of routes) {
      const depths = namedObjects(HUB_BODY_SCHEMAS[name]);
      expect(depths.length, name).toBeGreaterThan(0);
      for (const depth of depths) {
        const reply = await client.request('POST', path, withUnknownAt(SAMPLES[name], depth));
        const label = `${path} ${depth.join('.')}`;
        expect([label, reply.status, code(reply.body)]).toEqual([label, 400, 'invalid_input']);
        expect((reply.body as { error: { message: string } }).error.message, label).toContain('(zz_unknown)');
        sentCount++;
      }
    }
    // Every object of sendMessage and interruptAnswer is reached, the intents' approval included.
    expect(sentCount).toBeGreaterThanOrEqual(16);
    expect(await rowCounts(server.store)).toEqual(before);
    const call = await server.store.db
      .selectFrom('hub_tool_calls')
      .select('status')
      .where('id', '=', interrupt.id)
      .executeTakeFirstOrThrow();
    expect(call.status).toBe('interrupt');
    stream.close();
  });

  it('takes exactly one of two different answers sent to one interrupt at once, and resumes the turn once', async () => {
    const ROUNDS = 6;
    server = await startHubServer({
      script: Array.from({ length: ROUNDS }, (_, round) => [
        { toolCalls: [{ toolName: 'read_page', input: {} }] },
        { text: `Read it (${round}).` },
      ]).flat(),
    });
    const { client, conversation, stream } = await server.visit();
    const answerer = new HubClient(server.url, server.pageOrigin);
    answerer.token = client.token;
    for (let round = 0; round < ROUNDS; round++) {
      const sent = await client.send(conversation, { text: `Read the page (${round})`, registry: REGISTRY });
      const turnId = sent.body.turnId;
      const { interrupt } = await stream.until('interrupt', (event) => event.turnId === turnId);
      const answers = [{ result: { content: `page A${round}` } }, { result: { content: `page B${round}` } }];
      const replies = await Promise.all([
        client.answer(interrupt.id, answers[0]!),
        answerer.answer(interrupt.id, answers[1]!),
      ]);
      await stream.until('turn.done', (event) => event.turnId === turnId);

      const statuses = replies.map((reply) => reply.status);
      expect([round, [...statuses].sort()]).toEqual([round, [200, 409]]);
      const winner = statuses.indexOf(200);
      const loser = 1 - winner;
      expect(replies[winner]!.body).toEqual({ status: 'accepted' });
      expect(code(replies[loser]!.body)).toBe('result_conflict');

      const row = await server.store.db
        .selectFrom('hub_tool_calls')
        .select(['status', 'answer_json', 'output_json'])
        .where('id', '=', interrupt.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('done');
      expect(JSON.parse(row.answer_json!)).toEqual(answers[winner]);
      expect(row.output_json).toContain(`page ${winner === 0 ? 'A' : 'B'}${round}`);
      expect(row.output_json).not.toContain(`page ${winner === 0 ? 'B' : 'A'}${round}`);

      const ofTurn = <T extends { turnId: string }>(events: T[]) =>
        events.filter((event) => event.turnId === turnId);
      expect(ofTurn(stream.ofType('interrupt.resolved'))).toHaveLength(1);
      expect(ofTurn(stream.ofType('tool.finished'))).toHaveLength(1);
      expect(ofTurn(stream.ofType('turn.done'))).toHaveLength(1);
      // The model ran twice for this round (the call, then the reply), and read only the winner.
      expect(server.model.calls).toHaveLength(2 * (round + 1));
      const read = JSON.stringify(server.model.calls.at(-1)!.prompt);
      expect(read).toContain(`page ${winner === 0 ? 'A' : 'B'}${round}`);
      expect(read).not.toContain(`page ${winner === 0 ? 'B' : 'A'}${round}`);
    }
    const stored = await server.store.db
      .selectFrom('hub_events')
      .select('type')
      .where('conversation_id', '=', conversation)
      .where('type', '=', 'interrupt.resolved')
      .execute();
    expect(stored).toHaveLength(ROUNDS);
    stream.close();
  });
});
