import type { InterruptAnswer } from '@diosc/protocol';
import { afterEach, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createScriptedModel } from '../../src/hub/model/scripted/scripted-model.js';
import { describeOnDialects, HubClient, type HubTestServer, startHubServer } from './support/hub-server.js';
import { rowCounts } from './support/rows.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const REGISTRY = { tools: ['read_page'], intents: [] };

async function waitingTurn(
  script = [{ toolCalls: [{ toolName: 'read_page', input: {} }] }, { text: 'Read it.' }],
) {
  server = await startHubServer({ script });
  const { client, conversation, stream } = await server.visit();
  const sent = await client.send(conversation, { text: 'What is on the page?', registry: REGISTRY });
  const { interrupt } = await stream.until('interrupt');
  return { client, conversation, stream, interrupt, turnId: sent.body.turnId };
}

const code = (body: unknown) => (body as { error?: { code?: string } }).error?.code;

describeOnDialects('interrupt answers', () => {
  it('acknowledges the same answer twice without effect, and refuses a different one', async () => {
    const { client, stream, interrupt } = await waitingTurn();
    const answer = { result: { url: '/', title: 'Home', content: 'Welcome' } };
    expect((await client.answer(interrupt.id, answer)).body).toEqual({ status: 'accepted' });
    await stream.until('turn.done');
    const after = await rowCounts(server!.store);
    expect((await client.answer(interrupt.id, answer)).body).toEqual({ status: 'duplicate' });
    const other = await client.answer(interrupt.id, { result: { content: 'Something else' } });
    expect(other.status).toBe(409);
    expect(code(other.body)).toBe('result_conflict');
    expect(await rowCounts(server!.store)).toEqual(after);
    // The model ran twice (the call and the reply), never again for the repeats.
    expect(server!.model.calls).toHaveLength(2);
    expect(stream.ofType('interrupt.resolved')).toHaveLength(1);
  });

  it('gives the model a result that is no object exactly as the page sent it, and announces no file', async () => {
    const { client, stream, interrupt } = await waitingTurn();
    expect((await client.answer(interrupt.id, { result: ['Welcome', 'Teas'] })).body).toEqual({
      status: 'accepted',
    });
    await stream.until('turn.done');
    const tool = server!.model.calls[1]!.prompt.find((message) => message.role === 'tool')!;
    expect((tool.content[0] as { output: unknown }).output).toEqual({
      type: 'json',
      value: ['Welcome', 'Teas'],
    });
    expect(stream.ofType('file.ready')).toEqual([]);
  });

  it('two different answers at once: one is taken, the other is a conflict, and the turn goes on once', async () => {
    const { client, stream, interrupt } = await waitingTurn();
    const replies = await Promise.all([
      client.answer(interrupt.id, { result: { content: 'first' } }),
      client.answer(interrupt.id, { result: { content: 'second' } }),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    expect(replies.map((reply) => code(reply.body)).filter(Boolean)).toEqual(['result_conflict']);
    await stream.until('turn.done');
    expect(stream.ofType('interrupt.resolved')).toHaveLength(1);
    expect(server!.model.calls).toHaveLength(2);
  });

  it('says on the stream what became of a browser call: declined when the person rejected it, error when it failed, done otherwise', async () => {
    const apply = { toolName: 'browser_apply_changes', input: { ops: [] } };
    server = await startHubServer({
      script: [{ toolCalls: [apply] }, { toolCalls: [apply] }, { toolCalls: [apply] }, { text: 'Done.' }],
    });
    const { client, conversation, stream } = await server.visit();
    const editor = {
      tools: [],
      intents: [{ name: 'apply_changes', description: 'Apply a diff.', schema: { type: 'object' } }],
    };
    await client.send(conversation, { text: 'apply', registry: editor });
    const answers: InterruptAnswer[] = [
      {
        result: { success: false, error: 'Declined by the user.' },
        decision: { decision: 'reject', reason: 'No.' },
      },
      { result: { success: false, error: 'The diagram is locked.' } },
      { result: { success: true } },
    ];
    const answered = new Set<string>();
    for (const answer of answers) {
      const { interrupt } = await stream.until('interrupt', (event) => !answered.has(event.interrupt.id));
      answered.add(interrupt.id);
      expect((await client.answer(interrupt.id, answer)).body).toEqual({ status: 'accepted' });
    }
    await stream.until('turn.done');
    expect(stream.ofType('tool.finished').map(({ ok, summary }) => ({ ok, summary }))).toEqual([
      { ok: false, summary: 'declined' },
      { ok: false, summary: 'error' },
      { ok: true, summary: undefined },
    ]);
  });

  it('refuses an answer from another visitor session, and one for an unknown id, changing nothing', async () => {
    const { interrupt } = await waitingTurn();
    const before = await rowCounts(server!.store);
    const stranger = server!.client();
    await stranger.open(server!.assistant.publishableKey);
    const foreign = await stranger.answer(interrupt.id, { result: 'stolen' });
    expect(foreign.status).toBe(404);
    const unknown = await stranger.answer('tc_00000000-0000-0000-0000-000000000000', { result: 1 });
    expect(unknown.status).toBe(404);
    // Someone else's request and one that never existed answer alike: no oracle for IDs.
    expect(foreign.body).toMatchObject({ error: { code: 'not_found' } });
    expect(foreign.body).toEqual(unknown.body);
    const counts = await rowCounts(server!.store);
    expect({ ...counts, hub_visitor_sessions: 0 }).toEqual({ ...before, hub_visitor_sessions: 0 });
    const call = await server!.store.db
      .selectFrom('hub_tool_calls')
      .selectAll()
      .where('id', '=', interrupt.id)
      .executeTakeFirstOrThrow();
    expect(call.status).toBe('interrupt');
  });

  it('refuses malformed answers: both result and error, unknown fields, over the size cap', async () => {
    const { client, interrupt } = await waitingTurn();
    const before = await rowCounts(server!.store);
    const both = await client.answer(interrupt.id, { result: 1, error: 'x' } as never);
    expect(code(both.body)).toBe('invalid_input');
    const extra = await client.request('POST', `/interrupts/${interrupt.id}/answer`, {
      result: 1,
      history: [],
    });
    expect(code(extra.body)).toBe('invalid_input');
    const huge = await client.answer(interrupt.id, { result: 'x'.repeat(70_000) });
    expect(huge.status).toBe(413);
    expect(code(huge.body)).toBe('too_large');
    expect(await rowCounts(server!.store)).toEqual(before);
  });

  it('tells the model when the page did not answer in time, and refuses the late answer', async () => {
    server = await startHubServer({
      script: [{ toolCalls: [{ toolName: 'read_page', input: {} }] }, { text: 'The page did not answer.' }],
      assistant: { limits: { interruptTimeoutMs: 1_000 } },
    });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'Read', registry: REGISTRY });
    const { interrupt } = await stream.until('interrupt');
    const resolved = await stream.until('interrupt.resolved');
    expect(resolved.outcome).toBe('timed_out');
    expect(resolved.interruptId).toBe(interrupt.id);
    expect(await stream.until('tool.finished', (event) => event.toolCallId === interrupt.id)).toMatchObject({
      tool: 'read_page',
      ok: false,
      summary: 'interrupt_timed_out',
    });
    await stream.until('turn.done');
    expect(JSON.stringify(server.model.calls[1]!.prompt)).toContain('interrupt_timed_out');
    expect(JSON.stringify(server.model.calls[1]!.prompt)).toContain(
      'The page did not answer this browser tool in time.',
    );
    const late = await client.answer(interrupt.id, { result: 'late' });
    expect(code(late.body)).toBe('interrupt_not_pending');
  });

  it('cancels a waiting turn: the interrupt closes, a late answer is refused, and the conversation is free', async () => {
    const { client, conversation, stream, interrupt, turnId } = await waitingTurn();
    const cancelled = await client.cancel(turnId);
    expect(cancelled.body).toMatchObject({ id: turnId, status: 'cancelled' });
    await stream.until('turn.cancelled');
    expect(code((await client.answer(interrupt.id, { result: 1 })).body)).toBe('interrupt_not_pending');
    expect(code((await client.cancel(turnId)).body)).toBe('turn_not_active');
    expect((await client.send(conversation, { text: 'again' })).status).toBe(202);
    await stream.until('turn.done');
    expect(stream.ofType('turn.failed')).toEqual([]);
    // The cancelled call reached the next prompt with an explicit result, so the history stays valid.
    expect(JSON.stringify(server!.model.calls[1]!.prompt)).toContain(
      'the turn ended before this tool returned',
    );
  });

  it('refuses a cancel with a body that is not empty, leaving the turn waiting; a cancel with no body at all is taken', async () => {
    const { client, conversation, stream, interrupt, turnId } = await waitingTurn();
    const before = await rowCounts(server!.store);
    const refused = await client.request('POST', `/turns/${turnId}/cancel`, { x: 1 });
    expect(refused.status).toBe(400);
    expect(code(refused.body)).toBe('invalid_input');
    expect(await rowCounts(server!.store)).toEqual(before);
    expect((await client.view(conversation)).body.turn).toMatchObject({ id: turnId, status: 'waiting' });
    expect(stream.ofType('turn.cancelled')).toEqual([]);

    const bare = await client.request('POST', `/turns/${turnId}/cancel`);
    expect(bare.status).toBe(200);
    expect(bare.body).toMatchObject({ id: turnId, status: 'cancelled' });
    await stream.until('turn.cancelled');
    expect(code((await client.answer(interrupt.id, { result: 1 })).body)).toBe('interrupt_not_pending');
  });

  it('refuses a second message while a turn waits (turn_in_progress), storing nothing', async () => {
    const { client, conversation } = await waitingTurn();
    const before = await rowCounts(server!.store);
    const second = await client.send(conversation, { text: 'Hello?' });
    expect(second.status).toBe(409);
    expect(code(second.body)).toBe('turn_in_progress');
    expect(await rowCounts(server!.store)).toEqual(before);
  });

  it('resumes a waiting turn answered after a server restart', async () => {
    const { client, conversation, interrupt, stream: first } = await waitingTurn();
    const { store, config } = server!;
    first.close();
    server!.app.server.closeAllConnections();
    await server!.app.close();

    const model = createScriptedModel([{ text: 'Back after the restart: the page says Welcome.' }]);
    const app = await buildApp({
      config,
      store,
      logger: false,
      hub: { scriptedModels: { test: model }, sweepIntervalMs: 50 },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const again = new HubClient(url, client.origin);
      again.token = client.token;
      const stream = again.stream(conversation);
      await stream.ready;
      expect((await again.answer(interrupt.id, { result: { content: 'Welcome' } })).body).toEqual({
        status: 'accepted',
      });
      const done = await stream.until('message');
      expect(done.message.text).toContain('Back after the restart');
      expect(JSON.stringify(model.calls[0]!.prompt)).toContain('Welcome');
      stream.close();
    } finally {
      app.server.closeAllConnections();
      await app.close();
    }
  });
});
