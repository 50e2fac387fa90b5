import type { ScriptedCall, ScriptedStep } from '@diosc/server/testing';
import { afterEach, expect, it } from 'vitest';
import type { ServerTool } from '../../src/hub/server-tools/server-tool.js';
import type { TurnRunner } from '../../src/hub/turns/turn-runner.js';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';
import { type SecondInstance, startSecondInstance } from './support/second-instance.js';

const ITERATIONS = 60;
/** Many races in a row take a while on a loaded machine; each one waits only on its own events. */
const RACES_TIMEOUT_MS = 180_000;
const READ_PAGE = { tools: ['read_page'], intents: [] };

let server: HubTestServer | undefined;
let second: SecondInstance | undefined;
afterEach(async () => {
  await second?.close();
  await server?.close();
  server = undefined;
  second = undefined;
});

/** Which race a prompt belongs to and how far its turn is (tool results since the visitor spoke). */
function stageOf(call: ScriptedCall): { race: string; stage: number } {
  const lastUser = call.prompt.findLastIndex((message) => message.role === 'user');
  const race = /race-\d+/.exec(JSON.stringify(call.prompt[lastUser]))?.[0] ?? 'unknown';
  const stage = call.prompt.slice(lastUser).filter((message) => message.role === 'tool').length;
  return { race, stage };
}

async function idle(...runners: { activeCount: number }[]): Promise<void> {
  while (runners.some((runner) => runner.activeCount > 0)) await new Promise((r) => setTimeout(r, 10));
}

describeOnDialects('two instances racing to resume one turn', () => {
  it(
    `runs each step and each tool call exactly once, ${ITERATIONS} races in a row`,
    async () => {
      // Every model call, by race and stage; every execution of the server tool, by turn — counted in
      // the tool's own side effect, whichever instance ran it.
      const modelCalls = new Map<string, number[]>();
      const executions = new Map<string, number>();
      const ranOn = { A: 0, B: 0 };
      const tally = (instance: 'A' | 'B'): ServerTool => ({
        name: 'tally',
        description: 'Counts one execution.',
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        async execute(_args, context) {
          executions.set(context.turnId, (executions.get(context.turnId) ?? 0) + 1);
          ranOn[instance]++;
          return { counted: true };
        },
      });
      const script = (call: ScriptedCall): ScriptedStep => {
        const { race, stage } = stageOf(call);
        modelCalls.set(race, [...(modelCalls.get(race) ?? []), stage]);
        if (stage === 0) return { toolCalls: [{ toolName: 'read_page', input: {} }] };
        if (stage === 1) return { toolCalls: [{ toolName: 'tally', input: {} }] };
        return { text: `${race} done.` };
      };
      server = await startHubServer({
        script,
        assistant: { limits: { messagesPerMinute: 1_000 } },
        hub: { eventPollMs: 100, extraServerTools: () => [tally('A')] },
      });
      second = await startSecondInstance(server, { eventPollMs: 100, extraServerTools: () => [tally('B')] });
      const runnerA = server.app.diosc.hub!.runner as TurnRunner;
      const runnerB = second.app.diosc.hub!.runner as TurnRunner;

      // One visitor (sessions are rate-limited per address), a new conversation per race.
      const { client } = await server.visit();
      const onB = second.clientAs(client);
      for (let race = 0; race < ITERATIONS; race++) {
        const conversation = await client.conversation();
        const stream = client.stream(conversation);
        await stream.ready;
        const sent = await client.send(conversation, { text: `race-${race}`, registry: READ_PAGE });
        const turnId = sent.body.turnId;
        const { interrupt } = await stream.until('interrupt');
        const answer = { result: { content: `page ${race}` } };
        // The same answer on both instances at once, and both runners told to resume, twice over.
        const [answeredA, answeredB] = await Promise.all([
          client.answer(interrupt.id, answer),
          onB.answer(interrupt.id, answer),
          runnerA.resumeIfUnblocked(turnId),
          runnerB.resumeIfUnblocked(turnId),
          Promise.resolve().then(() => runnerA.schedule(turnId)),
          Promise.resolve().then(() => runnerB.schedule(turnId)),
        ]);
        expect([answeredA.body, answeredB.body]).toEqual(
          expect.arrayContaining([{ status: 'accepted' }, { status: 'duplicate' }]),
        );
        await stream.until('turn.done', (event) => event.turnId === turnId);
        // A late wake on both after the end runs nothing.
        await Promise.all([runnerA.resumeIfUnblocked(turnId), runnerB.resumeIfUnblocked(turnId)]);
        await idle(runnerA, runnerB);

        expect(modelCalls.get(`race-${race}`), `model steps of race ${race}`).toEqual([0, 1, 2]);
        expect(executions.get(turnId), `tool executions of race ${race}`).toBe(1);
        const ids = stream.events.map((event) => event.id);
        expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
        expect(stream.ofType('turn.done')).toHaveLength(1);
        expect(stream.ofType('message')).toHaveLength(1);
        expect(stream.ofType('message')[0]!.message.text).toBe(`race-${race} done.`);
        const finished = stream.ofType('tool.finished').map((event) => event.toolCallId);
        expect(finished).toHaveLength(2);
        expect(new Set(finished).size).toBe(2);
        const messages = await server.store.db
          .selectFrom('hub_messages')
          .select('role')
          .where('conversation_id', '=', conversation)
          .orderBy('seq')
          .execute();
        expect(messages.map((row) => row.role)).toEqual([
          'user',
          'assistant',
          'tool',
          'assistant',
          'tool',
          'assistant',
        ]);
        const calls = await server.store.db
          .selectFrom('hub_tool_calls')
          .select(['tool', 'status'])
          .where('turn_id', '=', turnId)
          .orderBy('step')
          .execute();
        expect(calls).toEqual([
          { tool: 'read_page', status: 'done' },
          { tool: 'tally', status: 'done' },
        ]);
        stream.close();
      }
      expect(executions.size).toBe(ITERATIONS);
      // Which instance won is the race's business; that every race had exactly one winner is ours.
      expect(ranOn.A + ranOn.B).toBe(ITERATIONS);
      console.info(`tally ran on A ${ranOn.A}×, on B ${ranOn.B}×`);
    },
    RACES_TIMEOUT_MS,
  );
});
