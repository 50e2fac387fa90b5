import type { ScriptedCall, ScriptedStep } from '@diosc/server/testing';
import { afterEach, expect, it } from 'vitest';
import type { ServerTool } from '../../src/hub/server-tools/server-tool.js';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';
import { type SecondInstance, startSecondInstance } from './support/second-instance.js';

let server: HubTestServer | undefined;
let second: SecondInstance | undefined;
afterEach(async () => {
  await second?.close();
  await server?.close();
  server = undefined;
  second = undefined;
});

const READ_PAGE = { tools: ['read_page'], intents: [] };

/** Tool results the model has seen since the visitor spoke. */
const stageOf = (call: ScriptedCall) =>
  call.prompt
    .slice(call.prompt.findLastIndex((message) => message.role === 'user'))
    .filter((m) => m.role === 'tool').length;

/**
 * A server tool that runs until released, and a script whose first step calls it beside
 * `read_page` and whose next step answers; `seen` records the stage of every model call.
 */
function mixedStep() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const counts = { executions: 0 };
  const slow: ServerTool = {
    name: 'slow_lookup',
    description: 'Looks something up, slowly.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    async execute() {
      counts.executions++;
      started();
      await held;
      return { found: 'yes' };
    },
  };
  const seen: number[] = [];
  const script = (call: ScriptedCall): ScriptedStep => {
    const stage = stageOf(call);
    seen.push(stage);
    if (stage === 0)
      return {
        toolCalls: [
          { toolName: 'slow_lookup', input: {} },
          { toolName: 'read_page', input: {} },
        ],
      };
    return { text: 'Both are in.' };
  };
  return { slow, script, seen, running, release, counts };
}

describeOnDialects('a step that mixes a server call and a page tool', () => {
  it('runs the server call while the page decides, and closes the step once, whichever finishes last', async () => {
    for (const last of ['page', 'server'] as const) {
      const { slow, script, seen, running, release } = mixedStep();
      server = await startHubServer({ script, hub: { extraServerTools: () => [slow] } });
      const { client, conversation, stream } = await server.visit();
      await client.send(conversation, { text: `mixed, ${last} last`, registry: READ_PAGE });
      const { interrupt } = await stream.until('interrupt');
      await running;
      if (last === 'page') {
        release();
        await stream.until('tool.finished', (event) => event.tool === 'slow_lookup');
        // The server call is done and the page is still deciding: the turn waits on the page.
        expect((await client.answer(interrupt.id, { result: { content: 'page' } })).body).toEqual({
          status: 'accepted',
        });
      } else {
        // The page answers while the server call runs: its runner holds the turn and goes on alone.
        expect((await client.answer(interrupt.id, { result: { content: 'page' } })).body).toEqual({
          status: 'accepted',
        });
        release();
      }
      await stream.until('turn.done');
      // One model step after the tools, which saw both results; one tool message in the store.
      expect(seen).toEqual([0, 1]);
      const tools = await server.store.db
        .selectFrom('hub_messages')
        .select(['role', 'content_json'])
        .where('conversation_id', '=', conversation)
        .where('role', '=', 'tool')
        .execute();
      expect(tools).toHaveLength(1);
      const results = JSON.parse(tools[0]!.content_json).content.map(
        (part: { toolName: string }) => part.toolName,
      );
      expect(results).toEqual(['slow_lookup', 'read_page']);
      stream.close();
      await server.close();
      server = undefined;
    }
  });

  it('keeps the turn with the runner of its server call: an answer on another instance neither takes nor abandons it', async () => {
    const { slow, script, seen, running, release, counts } = mixedStep();
    server = await startHubServer({ script, hub: { eventPollMs: 100, extraServerTools: () => [slow] } });
    second = await startSecondInstance(server, { eventPollMs: 100, extraServerTools: () => [slow] });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'mixed across instances', registry: READ_PAGE });
    const { interrupt } = await stream.until('interrupt');
    await running;
    // The page answers on B while A runs the server call: B must not run the step, nor call A's
    // running call cut short by a crash.
    expect(
      (await second.clientAs(client).answer(interrupt.id, { result: { content: 'page' } })).body,
    ).toEqual({
      status: 'accepted',
    });
    // Give B's runner time to act on its wake-up, were it allowed to.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await stream.until('turn.done');
    expect(counts.executions).toBe(1);
    expect(seen).toEqual([0, 1]);
    const finished = stream.ofType('tool.finished').map((event) => [event.tool, event.ok, event.summary]);
    expect(finished).toEqual(
      expect.arrayContaining([
        ['slow_lookup', true, 'ok'],
        ['read_page', true, undefined],
      ]),
    );
    expect(finished.some(([, , summary]) => summary === 'uncertain')).toBe(false);
    stream.close();
  });
});
