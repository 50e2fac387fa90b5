import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HubServices } from '../../src/hub/hub-services.js';
import type { ToolCallRecord } from '../../src/hub/store/tool-calls.js';
import { startDeadlineSweeper, sweepDeadlines } from '../../src/hub/tool-calls/deadline-sweeper.js';
import { scrape } from '../observability/scrape.js';
import { describeOnDialects, type HubTestServer, startHubServer } from './support/hub-server.js';
import { planWrite } from './support/plan-write.js';

const TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';
const REGISTRY = { tools: ['read_page'], intents: [] };
/** The plugin's own sweeper never ticks during a test: the test sweeps itself. */
const NEVER = 3_600_000;

const write = planWrite('req-sweep-1');

let server: HubTestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

function hubOf(test: HubTestServer) {
  const hub = test.app.diosc.hub!;
  return { services: hub.services, runner: hub.runner };
}

/** The hub as a sweep sees it, but reading `stale` as the overdue calls: another instance's sweep read them too. */
function withOverdue(services: HubServices, stale: ToolCallRecord[]): HubServices {
  return { ...services, toolCalls: { ...services.toolCalls, overdue: async () => stale } };
}

async function callRow(id: string) {
  return server!.store.db
    .selectFrom('hub_tool_calls')
    .select(['status', 'output_json'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describeOnDialects('deadline sweep', () => {
  it('closes an overdue browser interrupt exactly once, tells the model, and counts no approval decision', async () => {
    server = await startHubServer({
      realClock: false,
      config: { metricsToken: TOKEN },
      script: [{ toolCalls: [{ toolName: 'read_page', input: {} }] }, { text: 'The page did not answer.' }],
      assistant: { limits: { interruptTimeoutMs: 1_000 } },
      hub: { sweepIntervalMs: NEVER },
    });
    const { services, runner } = hubOf(server);
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'Read', registry: REGISTRY });
    const { interrupt } = await stream.until('interrupt');
    // Not due yet: nothing to close.
    expect(await sweepDeadlines(services, runner)).toBe(0);
    expect((await callRow(interrupt.id)).status).toBe('interrupt');

    const url = `${server.url}/metrics`;
    const before = await scrape(url, TOKEN);
    server.clock.advance(1_001);
    const stale = await services.toolCalls.overdue();
    expect(stale.map((call) => call.id)).toEqual([interrupt.id]);
    expect(await sweepDeadlines(services, runner)).toBe(1);
    // Read before the close, written after it: the compare-and-set loses and nothing is counted.
    expect(await sweepDeadlines(withOverdue(services, stale), runner)).toBe(0);
    expect(await sweepDeadlines(services, runner)).toBe(0);

    await stream.until('turn.done');
    const row = await callRow(interrupt.id);
    expect(row.status).toBe('done');
    expect(JSON.parse(row.output_json!)).toEqual({
      type: 'error-text',
      value: 'interrupt_timed_out: The page did not answer this browser tool in time.',
    });
    expect(JSON.stringify(server.model.calls[1]!.prompt)).toContain(
      'interrupt_timed_out: The page did not answer this browser tool in time.',
    );
    expect(stream.ofType('interrupt.resolved')).toMatchObject([
      { interruptId: interrupt.id, outcome: 'timed_out' },
    ]);
    expect(stream.ofType('tool.finished')).toMatchObject([
      { toolCallId: interrupt.id, tool: 'read_page', ok: false, summary: 'interrupt_timed_out' },
    ]);
    const after = await scrape(url, TOKEN);
    const assistant = server.assistant.id;
    // A browser tool's timeout is no approval decision.
    expect(
      after.value('diosc_consensus_decisions_total', { assistant, outcome: 'timed_out' }) -
        before.value('diosc_consensus_decisions_total', { assistant, outcome: 'timed_out' }),
    ).toBe(0);
    stream.close();
  });

  it('closes an approval nobody decided exactly once: the tool does not run, the model is told, one timed_out decision is counted for the assistant', async () => {
    server = await startHubServer({
      realClock: false,
      config: { metricsToken: TOKEN },
      script: [{ toolCalls: [{ toolName: 'item_write', input: write }] }, { text: 'Nobody decided.' }],
      assistant: {
        serverTools: {
          account: { grant: [{ collection: 'notes', functions: ['item_write'] }] },
          consensus: { item_write: 'high' },
        },
        limits: { consensusTimeoutMs: 1_000 },
      },
      hub: { sweepIntervalMs: NEVER },
    });
    const { services, runner } = hubOf(server);
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'Write the plan' });
    const { request } = await stream.until('consensus.requested');
    const url = `${server.url}/metrics`;
    const before = await scrape(url, TOKEN);

    server.clock.advance(1_001);
    const stale = await services.toolCalls.overdue();
    expect(await sweepDeadlines(services, runner)).toBe(1);
    expect(await sweepDeadlines(withOverdue(services, stale), runner)).toBe(0);
    expect(await sweepDeadlines(services, runner)).toBe(0);

    await stream.until('turn.done');
    const row = await callRow(request.id);
    expect(row.status).toBe('done');
    expect(JSON.parse(row.output_json!)).toEqual({
      type: 'error-text',
      value: 'interrupt_timed_out: Nobody decided on this action in time; it did not run.',
    });
    expect(JSON.stringify(server.model.calls[1]!.prompt)).toContain(
      'interrupt_timed_out: Nobody decided on this action in time; it did not run.',
    );
    // An approval is no interrupt: only the tool's end is heard, once.
    expect(stream.ofType('interrupt.resolved')).toEqual([]);
    expect(stream.ofType('tool.finished')).toMatchObject([
      { toolCallId: request.id, tool: 'item_write', ok: false, summary: 'interrupt_timed_out' },
    ]);
    const items = await server.store.db
      .selectFrom('items')
      .select('id')
      .where('collection_id', '=', 'notes')
      .where('id', '=', 'plan')
      .execute();
    expect(items).toEqual([]);

    const after = await scrape(url, TOKEN);
    const assistant = server.assistant.id;
    expect(
      after.value('diosc_consensus_decisions_total', { assistant, outcome: 'timed_out' }) -
        before.value('diosc_consensus_decisions_total', { assistant, outcome: 'timed_out' }),
    ).toBe(1);
    expect(
      after.value('diosc_consensus_decisions_total', { assistant: 'unknown', outcome: 'timed_out' }),
    ).toBe(0);
    stream.close();
  });
});

describe('the deadline sweeper’s schedule', () => {
  function fakes(overdue: () => Promise<ToolCallRecord[]>) {
    const warn = vi.fn();
    const hub = { toolCalls: { overdue: vi.fn(overdue) }, log: { warn } } as unknown as HubServices;
    const runner = {
      instance: 'test-instance',
      leaseMs: 60_000,
      schedule: vi.fn(),
      resumeOrphans: vi.fn(async () => 0),
    };
    return { hub, runner, warn, overdue: hub.toolCalls.overdue as ReturnType<typeof vi.fn> };
  }

  it('starts no sweep while one still runs, and sweeps again once it ended', async () => {
    vi.useFakeTimers();
    let release!: (calls: ToolCallRecord[]) => void;
    const held = new Promise<ToolCallRecord[]>((resolve) => {
      release = resolve;
    });
    const { hub, runner, overdue, warn } = fakes(() => held);
    const stop = startDeadlineSweeper(hub, runner, 100);
    try {
      await vi.advanceTimersByTimeAsync(99);
      expect(overdue).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(overdue).toHaveBeenCalledTimes(1);
      expect(runner.resumeOrphans).toHaveBeenCalledTimes(1);
      // Five more ticks while the first sweep is held open: none starts another.
      await vi.advanceTimersByTimeAsync(500);
      expect(overdue).toHaveBeenCalledTimes(1);
      expect(runner.resumeOrphans).toHaveBeenCalledTimes(1);

      overdue.mockImplementation(async () => []);
      release([]);
      await vi.advanceTimersByTimeAsync(0);
      await vi.advanceTimersByTimeAsync(100);
      expect(overdue).toHaveBeenCalledTimes(2);
      expect(runner.resumeOrphans).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(100);
      expect(overdue).toHaveBeenCalledTimes(3);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      stop();
    }
  });

  it('logs a failed sweep with its error, and sweeps again at the next tick', async () => {
    vi.useFakeTimers();
    const failure = new Error('store unreachable');
    const { hub, runner, overdue, warn } = fakes(async () => {
      throw failure;
    });
    const stop = startDeadlineSweeper(hub, runner, 100);
    try {
      await vi.advanceTimersByTimeAsync(100);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn).toHaveBeenCalledWith({ err: failure }, 'deadline sweep failed');
      await vi.advanceTimersByTimeAsync(100);
      expect(overdue).toHaveBeenCalledTimes(2);
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      stop();
    }
  });

  it('logs a failed orphan resume the same way', async () => {
    vi.useFakeTimers();
    const failure = new Error('lease table locked');
    const { hub, runner, warn } = fakes(async () => []);
    runner.resumeOrphans.mockRejectedValue(failure);
    const stop = startDeadlineSweeper(hub, runner, 100);
    try {
      await vi.advanceTimersByTimeAsync(100);
      expect(warn).toHaveBeenCalledWith({ err: failure }, 'deadline sweep failed');
    } finally {
      stop();
    }
  });

  it('stops ticking once its stop function is called', async () => {
    vi.useFakeTimers();
    const { hub, runner, overdue } = fakes(async () => []);
    const stop = startDeadlineSweeper(hub, runner, 100);
    await vi.advanceTimersByTimeAsync(200);
    expect(overdue).toHaveBeenCalledTimes(2);
    stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(overdue).toHaveBeenCalledTimes(2);
    expect(runner.resumeOrphans).toHaveBeenCalledTimes(2);
  });
});
