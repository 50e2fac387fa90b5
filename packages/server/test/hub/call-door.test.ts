import { afterEach, expect, it } from 'vitest';
import { answerInterrupt } from '../../src/hub/tool-calls/answer-interrupt.js';
import { resolveCall } from '../../src/hub/tool-calls/resolve-call.js';
import type { VisitorSession } from '../../src/hub/visitors/visitor-sessions.js';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';

// The one door of a tool call's life (resolveCall), driven directly: which change wins, when the
// turn is handed on and to whom, and what a change that leaves its step open must not do. A runner
// of another instance stands in for the one the change hands the turn to, so this process's own
// runner never runs the next step and every hand-over is seen as it is made.

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const REGISTRY = { tools: ['read_page'], intents: [] };
const READ = { toolName: 'read_page', input: {} };

interface Scheduled {
  turnId: string;
  options: unknown;
}

function elsewhere() {
  const scheduled: Scheduled[] = [];
  return {
    scheduled,
    runner: {
      instance: 'instance-elsewhere',
      leaseMs: 60_000,
      schedule(turnId: string, options?: unknown) {
        scheduled.push({ turnId, options });
      },
    },
  };
}

/** A turn whose first step asked the page for `count` browser tools at once, all still waiting. */
async function waitingStep(count = 2) {
  const reads = Array.from({ length: count }, () => READ);
  server = await startHubServer({ realClock: false, script: [{ toolCalls: reads }, { text: 'Read.' }] });
  const { client, conversation, stream } = await server.visit();
  const sent = await client.send(conversation, { text: 'Read it.', registry: REGISTRY });
  await stream.until('interrupt', () => stream.ofType('interrupt').length === count);
  const turnId = sent.body.turnId as string;
  const hub = server.app.diosc.hub!;
  const calls = await hub.services.toolCalls.forStep(turnId, 0);
  expect(calls.map((call) => call.status)).toEqual(reads.map(() => 'interrupt'));
  const turnRow = () =>
    server!.store.db
      .selectFrom('hub_turns')
      .select(['status', 'step', 'lease_owner'])
      .where('id', '=', turnId)
      .executeTakeFirstOrThrow();
  const toolMessages = async () =>
    (
      await server!.store.db
        .selectFrom('hub_messages')
        .select('seq')
        .where('conversation_id', '=', conversation)
        .where('role', '=', 'tool')
        .execute()
    ).length;
  const change = (index: number, value: string) => ({
    call: calls[index]!,
    conversationId: conversation,
    from: 'interrupt' as const,
    to: 'done' as const,
    fields: { output: { type: 'json' as const, value } },
  });
  return { hub, client, conversation, stream, turnId, calls, turnRow, toolMessages, change };
}

describeOnDialects('the door of a tool call', () => {
  it('leaves a step with a call still waiting alone: no hand-over, no results; the first change wins, a repeat loses', async () => {
    const { hub, turnId, turnRow, toolMessages, change } = await waitingStep();
    const { runner, scheduled } = elsewhere();
    const before = await turnRow();
    expect(await resolveCall(hub.services, runner, change(0, 'first'))).toBe(true);
    expect(scheduled).toEqual([]);
    expect(await turnRow()).toEqual(before);
    expect(await toolMessages()).toBe(0);
    // The same call changed again: the compare-and-set finds it done, nothing moves.
    expect(await resolveCall(hub.services, runner, change(0, 'again'))).toBe(false);
    expect(scheduled).toEqual([]);
    const [first] = await hub.services.toolCalls.forStep(turnId, 0);
    expect(first!.output).toEqual({ type: 'json', value: 'first' });
  });

  it('hands the turn, leased, to the runner of the change that closes the step, with the step’s results', async () => {
    const { hub, turnId, turnRow, toolMessages, change } = await waitingStep();
    const { runner, scheduled } = elsewhere();
    expect(await resolveCall(hub.services, runner, change(0, 'first'))).toBe(true);
    expect(await resolveCall(hub.services, runner, change(1, 'second'))).toBe(true);
    expect(scheduled).toEqual([{ turnId, options: { leased: true } }]);
    expect(await turnRow()).toEqual({ status: 'running', step: 1, lease_owner: 'instance-elsewhere' });
    expect(await toolMessages()).toBe(1);
  });

  it('moves the turn on without closing the step when a call is left for the runner to run', async () => {
    const { hub, turnId, calls, turnRow, toolMessages, change } = await waitingStep();
    // The second call is a server call now ready to run: not waiting, not done.
    await server!.store.db
      .updateTable('hub_tool_calls')
      .set({ status: 'ready' })
      .where('id', '=', calls[1]!.id)
      .execute();
    const { runner, scheduled } = elsewhere();
    expect(await resolveCall(hub.services, runner, change(0, 'first'))).toBe(true);
    expect(scheduled).toEqual([{ turnId, options: { leased: true } }]);
    // Running, leased to the change's runner, still on step 0: no results appended.
    expect(await turnRow()).toEqual({ status: 'running', step: 0, lease_owner: 'instance-elsewhere' });
    expect(await toolMessages()).toBe(0);
  });

  it('only wakes the turn when another runner still holds its lease', async () => {
    const { hub, turnId, turnRow, toolMessages, change } = await waitingStep();
    await server!.store.db
      .updateTable('hub_turns')
      .set({ lease_owner: 'instance-busy', lease_until: server!.clock.now() + 60_000 })
      .where('id', '=', turnId)
      .execute();
    const { runner, scheduled } = elsewhere();
    expect(await resolveCall(hub.services, runner, change(0, 'first'))).toBe(true);
    expect(await resolveCall(hub.services, runner, change(1, 'second'))).toBe(true);
    expect(scheduled).toEqual([{ turnId, options: undefined }]);
    expect(await turnRow()).toEqual({ status: 'waiting', step: 0, lease_owner: 'instance-busy' });
    expect(await toolMessages()).toBe(0);
  });

  it('changes a call without a runner and hands nothing on (the runner’s own changes)', async () => {
    const { hub, turnRow, toolMessages, change } = await waitingStep();
    const before = await turnRow();
    expect(await resolveCall(hub.services, undefined, change(0, 'first'))).toBe(true);
    expect(await resolveCall(hub.services, undefined, change(1, 'second'))).toBe(true);
    expect(await resolveCall(hub.services, undefined, change(1, 'again'))).toBe(false);
    expect(await turnRow()).toEqual(before);
    expect(await toolMessages()).toBe(0);
  });

  it('an answer that loses the race after its first check: the same body is a duplicate, another a conflict, after a timeout not pending', async () => {
    const { hub, conversation, calls } = await waitingStep(3);
    const row = await server!.store.db
      .selectFrom('hub_conversations')
      .select(['visitor_id', 'assistant_id'])
      .where('id', '=', conversation)
      .executeTakeFirstOrThrow();
    const session: VisitorSession = {
      id: 'vs_test',
      assistantId: row.assistant_id,
      visitorId: row.visitor_id,
      origin: server!.pageOrigin,
      expiresAt: server!.clock.now() + 60_000,
    };
    const answer = (index: number, text: string) =>
      answerInterrupt(hub, session, { interruptId: calls[index]!.id, answer: { result: { text } } }).then(
        (reply) => reply.status,
        (error: { code?: string }) => error.code,
      );
    // The next answer is held right after it read its call (still waiting), while another change
    // wins: the held one then loses at the compare-and-set, not at the first check.
    const ofVisitor = hub.services.toolCalls.ofVisitor;
    const heldAnswer = async (index: number, text: string, winner: () => Promise<unknown>) => {
      let reached!: () => void;
      const read = new Promise<void>((resolve) => {
        reached = resolve;
      });
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      hub.services.toolCalls.ofVisitor = async (...args) => {
        hub.services.toolCalls.ofVisitor = ofVisitor;
        const found = await ofVisitor(...args);
        reached();
        await released;
        return found;
      };
      const held = answer(index, text);
      await read;
      const won = await winner();
      release();
      return [won, await held];
    };
    try {
      expect(await heldAnswer(0, 'same', () => answer(0, 'same'))).toEqual(['accepted', 'duplicate']);
      expect(await heldAnswer(1, 'one', () => answer(1, 'two'))).toEqual(['accepted', 'result_conflict']);
      const timedOut = {
        call: calls[2]!,
        conversationId: conversation,
        from: 'interrupt' as const,
        to: 'done' as const,
        fields: { output: { type: 'error-text' as const, value: 'interrupt_timed_out: late' } },
      };
      expect(await heldAnswer(2, 'late', () => resolveCall(hub.services, undefined, timedOut))).toEqual([
        true,
        'interrupt_not_pending',
      ]);
    } finally {
      hub.services.toolCalls.ofVisitor = ofVisitor;
    }
    const done = await hub.services.toolCalls.forStep(calls[0]!.turnId, 0);
    expect(done.map((call) => call.output)).toEqual([
      { type: 'json', value: { text: 'same' } },
      { type: 'json', value: { text: 'two' } },
      { type: 'error-text', value: 'interrupt_timed_out: late' },
    ]);
    // One `interrupt.resolved` per answer taken; the losers added none.
    const resolved = await server!.store.db
      .selectFrom('hub_events')
      .select('id')
      .where('conversation_id', '=', conversation)
      .where('type', '=', 'interrupt.resolved')
      .execute();
    expect(resolved).toHaveLength(2);
  });
});
