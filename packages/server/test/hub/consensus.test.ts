import type { TranscriptView } from '@diosc/protocol';
import { afterEach, expect, it } from 'vitest';
import { callJson, signIn } from '../owner/owner-client.js';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';
import { rowCounts } from './support/rows.js';

let server: HubTestServer | undefined;
const code = (body: unknown) => (body as { error?: { code?: string } }).error?.code;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const write = (title: unknown) => ({
  collection: 'notes',
  item: 'plan',
  requestId: 'req-plan-1',
  ifNoneMatch: '*',
  content: { title, body: 'Ship the hub.', contentType: 'text/plain' },
});

async function start() {
  server = await startHubServer({
    script: [
      { toolCalls: [{ toolName: 'collections_list', input: {} }] },
      { toolCalls: [{ toolName: 'item_write', input: write('Q3 plan') }] },
      { text: 'Finished.' },
    ],
    assistant: {
      serverTools: {
        account: { grant: [{ collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] }] },
        consensus: { item_write: 'high' },
      },
    },
  });
  const { client, conversation, stream } = await server.visit();
  await client.send(conversation, { text: 'Write the plan' });
  const requested = await stream.until('consensus.requested');
  return { client, conversation, stream, request: requested.request };
}

async function noteTitle(): Promise<string | undefined> {
  const row = await server!.store.db
    .selectFrom('items')
    .select('title')
    .where('collection_id', '=', 'notes')
    .where('id', '=', 'plan')
    .executeTakeFirst();
  return row?.title;
}

describeOnDialects('server tools and Consensus', () => {
  it('runs a catalog read at once, and holds a write for the visitor with the hub-made summary', async () => {
    const { stream, request } = await start();
    const list = stream.ofType('tool.finished').find((event) => event.tool === 'collections_list');
    expect(list).toMatchObject({ ok: true });
    // The model saw only the granted collection.
    const prompt = JSON.stringify(server!.model.calls[1]!.prompt);
    expect(prompt).toContain('"id":"notes"');
    expect(prompt).not.toContain('"id":"inbox"');
    expect(request).toMatchObject({ tool: 'item_write', severity: 'high', args: write('Q3 plan') });
    expect(request.summary).toBe(
      'Run item_write with collection = notes, item = plan, requestId = req-plan-1, ifNoneMatch = *, …',
    );
    expect(request.argsDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(await noteTitle()).toBeUndefined();
  });

  it('runs a server tool of a step while the page still owes its browser tool', async () => {
    server = await startHubServer({
      script: [
        {
          toolCalls: [
            { toolName: 'read_page', input: {} },
            { toolName: 'items_list', input: { collection: 'notes' } },
          ],
        },
        { text: 'Both done.' },
      ],
      assistant: {
        serverTools: { account: { grant: [{ collection: 'notes', functions: ['items_list'] }] } },
      },
    });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'go', registry: { tools: ['read_page'], intents: [] } });
    const { interrupt } = await stream.until('interrupt');
    await stream.until('tool.finished', (event) => event.tool === 'items_list');
    expect((await client.view(conversation)).body.turn).toMatchObject({ status: 'waiting' });
    await client.answer(interrupt.id, { result: { content: 'page' } });
    await stream.until('turn.done');
    const results = server.model.calls[1]!.prompt.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(1);
    expect(JSON.stringify(results)).toContain('"items":[');
    expect(JSON.stringify(results)).toContain('"content":"page"');
  });

  it('approve runs the model’s exact arguments', async () => {
    const { client, stream, request } = await start();
    expect(
      (await client.decide(request.id, { decision: 'approve', argsDigest: request.argsDigest })).status,
    ).toBe(200);
    await stream.until('turn.done');
    expect(await noteTitle()).toBe('Q3 plan');
    // Through the one call path: a usage row per call, on the assistant's connection, channel hub.
    const usage = await server!.store.db
      .selectFrom('usage')
      .select(['tool', 'outcome', 'transport', 'connection_id'])
      .execute();
    const connectionId = server!.assistant.config.serverTools.account?.connectionId;
    expect(usage.filter((row) => row.transport === 'hub')).toEqual([
      { tool: 'collections_list', outcome: 'ok', transport: 'hub', connection_id: connectionId },
      { tool: 'item_write', outcome: 'ok', transport: 'hub', connection_id: connectionId },
    ]);
    const results = JSON.stringify(server!.model.calls[2]!.prompt.filter((m) => m.role === 'tool'));
    expect(results).toContain('"version"');
  });

  it('edit runs the visitor’s arguments after checking them, and the model sees the edit as an edit', async () => {
    const { client, stream, request } = await start();
    const before = await rowCounts(server!.store);
    const invalid = await client.decide(request.id, {
      decision: 'edit',
      argsDigest: request.argsDigest,
      args: write(42),
    });
    expect(invalid.status).toBe(400);
    expect(code(invalid.body)).toBe('invalid_input');
    expect(await rowCounts(server!.store)).toEqual(before);
    expect(await noteTitle()).toBeUndefined();

    const edited = await client.decide(request.id, {
      decision: 'edit',
      argsDigest: request.argsDigest,
      args: write('Q4 plan'),
    });
    expect(edited.status).toBe(200);
    await stream.until('turn.done');
    expect(await noteTitle()).toBe('Q4 plan');
    const results = JSON.stringify(server!.model.calls[2]!.prompt.filter((m) => m.role === 'tool'));
    expect(results).toContain('"editedByUser":{"changed":["content"]');
  });

  it('reject never runs the tool; the model reads "Action declined by user" with the reason', async () => {
    const { client, stream, request } = await start();
    await client.decide(request.id, {
      decision: 'reject',
      argsDigest: request.argsDigest,
      reason: 'wrong quarter',
    });
    await stream.until('turn.done');
    expect(await noteTitle()).toBeUndefined();
    const results = JSON.stringify(server!.model.calls[2]!.prompt.filter((m) => m.role === 'tool'));
    expect(results).toContain('"value":"Action declined by user: wrong quarter"');
  });

  it('refuses a decision for other arguments, a second decision, and a decision from another visitor', async () => {
    const { client, request } = await start();
    const before = await rowCounts(server!.store);
    const mismatch = await client.decide(request.id, { decision: 'approve', argsDigest: 'a'.repeat(64) });
    expect(mismatch.status).toBe(409);
    expect(code(mismatch.body)).toBe('decision_mismatch');

    const stranger = server!.client();
    await stranger.open(server!.assistant.publishableKey);
    const foreign = await stranger.decide(request.id, {
      decision: 'approve',
      argsDigest: request.argsDigest,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ error: { code: 'not_found' } });
    expect(await rowCounts(server!.store)).toEqual({
      ...before,
      hub_visitor_sessions: before.hub_visitor_sessions! + 1,
    });
    expect(await noteTitle()).toBeUndefined();

    await client.decide(request.id, { decision: 'reject', argsDigest: request.argsDigest });
    const again = await client.decide(request.id, { decision: 'approve', argsDigest: request.argsDigest });
    expect(code(again.body)).toBe('consensus_not_pending');
    expect(await noteTitle()).toBeUndefined();
  });

  it('refuses a decision whose fields belong to another kind of decision, and changes nothing', async () => {
    const { client, stream, request } = await start();
    const before = await rowCounts(server!.store);
    const eventsBefore = stream.events.length;
    for (const [body, message] of [
      [
        { decision: 'approve', argsDigest: request.argsDigest, args: request.args },
        'Only an edit carries arguments.',
      ],
      [
        { decision: 'reject', argsDigest: request.argsDigest, args: request.args },
        'Only an edit carries arguments.',
      ],
      [
        { decision: 'approve', argsDigest: request.argsDigest, reason: 'fine' },
        'Only a rejection carries a reason.',
      ],
      [
        { decision: 'edit', argsDigest: request.argsDigest, args: request.args, reason: 'x' },
        'Only a rejection carries a reason.',
      ],
      [{ decision: 'edit', argsDigest: request.argsDigest }, 'An edit needs the edited arguments.'],
    ] as const) {
      const reply = await client.decide(request.id, body as never);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toMatchObject({ error: { code: 'invalid_input', message } });
    }
    expect(await rowCounts(server!.store)).toEqual(before);
    expect(stream.events.length).toBe(eventsBefore);
    expect(await noteTitle()).toBeUndefined();
    // Still pending: the real decision goes through, and a rejection says so on the stream.
    expect(
      (await client.decide(request.id, { decision: 'reject', argsDigest: request.argsDigest })).body,
    ).toEqual({
      status: 'accepted',
    });
    const resolved = await stream.until('consensus.resolved');
    expect(resolved).toMatchObject({ consensusId: request.id, decision: 'reject' });
    const finished = await stream.until('tool.finished', (event) => event.toolCallId === request.id);
    expect(finished).toMatchObject({ tool: 'item_write', ok: false, summary: 'declined' });
    await stream.until('turn.done');
  });

  it('closes an approval nobody decided in time: the tool does not run, the model is told, a late decision is refused', async () => {
    server = await startHubServer({
      script: [
        { toolCalls: [{ toolName: 'item_write', input: write('Late plan') }] },
        { text: 'Nobody decided.' },
      ],
      assistant: {
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['item_write'] }] },
          consensus: { item_write: 'high' },
        },
        limits: { consensusTimeoutMs: 1_000 },
      },
      hub: { sweepIntervalMs: 50 },
    });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'Write the plan' });
    const { request } = await stream.until('consensus.requested');
    const finished = await stream.until('tool.finished', (event) => event.toolCallId === request.id, 10_000);
    expect(finished).toMatchObject({ tool: 'item_write', ok: false, summary: 'interrupt_timed_out' });
    // An approval is no interrupt: nothing says an interrupt was resolved.
    expect(stream.ofType('interrupt.resolved')).toEqual([]);
    await stream.until('turn.done');
    expect(JSON.stringify(server.model.calls[1]!.prompt)).toContain(
      'Nobody decided on this action in time; it did not run.',
    );
    expect(await noteTitle()).toBeUndefined();
    const late = await client.decide(request.id, { decision: 'approve', argsDigest: request.argsDigest });
    expect(code(late.body)).toBe('consensus_not_pending');
    expect(await noteTitle()).toBeUndefined();
  });

  it('keeps each decision in the owner’s transcript: approve, an edit’s changed fields (sorted), a rejection’s reason', async () => {
    const decided: Record<string, unknown>[] = [];
    for (const decision of [
      { decision: 'approve' },
      // Two fields changed, the later-declared one first in the alphabet: the record sorts them.
      { decision: 'edit', args: { ...write('Q4 plan'), requestId: 'req-plan-edited' } },
      { decision: 'reject', reason: 'wrong quarter' },
    ] as const) {
      const { client, conversation, stream, request } = await start();
      await client.decide(request.id, { ...decision, argsDigest: request.argsDigest });
      await stream.until('turn.done');
      // One end per call: a rejection finishes the call once, an approval or edit never as declined.
      const ends = stream.ofType('tool.finished').filter((event) => event.toolCallId === request.id);
      expect(ends).toEqual([
        expect.objectContaining(
          decision.decision === 'reject' ? { ok: false, summary: 'declined' } : { ok: true },
        ),
      ]);
      const owner = await signIn(server!.url);
      const transcript = await callJson<TranscriptView>(
        server!.url,
        `/assistants/${server!.assistant.id}/conversations/${conversation}`,
        owner,
      );
      const call = transcript.body.turns
        .flatMap((turn) => turn.toolCalls)
        .find((each) => each.id === request.id);
      decided.push(call!.consensus!);
      await server!.close();
      server = undefined;
    }
    expect(decided).toEqual([
      { state: 'decided', decision: 'approve' },
      {
        state: 'decided',
        decision: 'edit',
        proposedArgs: write('Q3 plan'),
        changed: ['content', 'requestId'],
      },
      { state: 'decided', decision: 'reject', reason: 'wrong quarter' },
    ]);
  });

  it('a decision on a decided request is consensus_not_pending before its arguments are looked at', async () => {
    const { client, stream, request } = await start();
    await client.decide(request.id, { decision: 'approve', argsDigest: request.argsDigest });
    await stream.until('turn.done');
    const before = await rowCounts(server!.store);
    // An edit whose arguments the schema refuses: the request is decided, so that is the answer.
    const late = await client.decide(request.id, {
      decision: 'edit',
      argsDigest: request.argsDigest,
      args: write(42),
    });
    expect(code(late.body)).toBe('consensus_not_pending');
    expect(await rowCounts(server!.store)).toEqual(before);
  });

  it('two decisions at once: exactly one is taken, the other is consensus_not_pending, and the tool runs once', async () => {
    const { client, stream, request } = await start();
    const answers = await Promise.all([
      client.decide(request.id, { decision: 'approve', argsDigest: request.argsDigest }),
      client.decide(request.id, { decision: 'reject', argsDigest: request.argsDigest, reason: 'no' }),
    ]);
    const taken = answers.filter((answer) => answer.status === 200);
    expect(taken).toHaveLength(1);
    expect(answers.map((answer) => code(answer.body)).filter(Boolean)).toEqual(['consensus_not_pending']);
    await stream.until('turn.done');
    expect(
      stream.ofType('consensus.resolved').filter((event) => event.consensusId === request.id),
    ).toHaveLength(1);
    expect(stream.ofType('tool.finished').filter((event) => event.toolCallId === request.id)).toHaveLength(1);
  });
});
