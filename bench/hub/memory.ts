// Measurement 3: the memory of turns waiting on browser interrupts, and proof they all resume.
// Our hub runs in a child process on a fresh SQLite store; this process plays the visitors over
// HTTP. The child weighs itself (full GC, process.memoryUsage()) at each phase:
//   base  — warmed up, nothing else;  convs — + N conversations (the baseline: no waiting turns);
//   waiting — + a turn waiting on a read_page interrupt in each;  streams — + open SSE streams.
// Then a random sample is answered — half in this process, half after a restart on the same
// store — and each must finish; the rest must still be waiting after the restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Child, startChild } from './children.js';
import { REGISTRY, REPLY, RESULT, userText } from './fixtures.js';
import { HubClient } from './hub-client.js';
import { pool } from './pool.js';
import { type Percentiles, percentiles } from './stats.js';
import { bareStreamCost } from './stream-cost.js';

type HubInfo = { url: string; publishableKey: string };
interface Measured {
  memory: NodeJS.MemoryUsage;
  turns: Record<string, number>;
  activeRunners: number;
  storeBytes: number;
}

/** Parallel visitors; SQLite serialises the writes anyway. */
const CONCURRENCY = 16;
const WARM_TURNS = 5;
const VIEW_PROBES = 50;
/** Messages per visitor session stay under the assistant's per-minute cap (1,000). */
const PER_SESSION = 500;

const startHub = (dir: string) =>
  startChild<HubInfo>('bench/hub/hub-server.ts', { HUB_BENCH_DIR: dir, HUB_BENCH_CALLS: '1' });

type Counts = Omit<Measured, 'memory'>;

/** Polls the store (no GC) until `ready`, with no turn runner in flight. */
async function waitFor(hub: Child<HubInfo>, ready: (m: Counts) => boolean, what: string): Promise<Counts> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const counts = await hub.ask<Counts>({ type: 'counts' });
    if (ready(counts) && counts.activeRunners === 0) return counts;
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(counts.turns)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Visit {
  client: HubClient;
  conversation: string;
}

/** GET /conversations/:id one at a time (no queueing), as a reloading kit calls it. */
async function timeViews(visits: Visit[]): Promise<number[]> {
  const times: number[] = [];
  for (const { client, conversation } of visits) {
    const start = performance.now();
    await client.view(conversation);
    times.push(performance.now() - start);
  }
  return times;
}

/** Answers each conversation's pending interrupt the way a reloaded kit does: view, then answer. */
async function answerAll(visits: Visit[]): Promise<void> {
  await pool(visits, CONCURRENCY, async ({ client, conversation }) => {
    const view = await client.view(conversation);
    const interrupt = view.pendingInterrupts[0];
    if (!interrupt) throw new Error(`${conversation}: no pending interrupt (turn ${view.turn?.status})`);
    await client.answer(interrupt.id, { result: RESULT });
  });
}

/** Every answered turn finished with the scripted reply — read back as a reloaded page would. */
async function checkFinished(visits: Visit[]): Promise<void> {
  await pool(visits, CONCURRENCY, async ({ client, conversation }) => {
    const view = await client.view(conversation);
    const last = view.messages.at(-1);
    if (view.turn?.status !== 'done' || last?.role !== 'assistant' || !last.text.includes(REPLY)) {
      throw new Error(`${conversation}: not finished (${view.turn?.status})`);
    }
  });
}

export interface MemoryResult {
  turns: number;
  phases: Record<'base' | 'convs' | 'waiting' | 'streams', Measured>;
  streams: number;
  /** Bytes per waiting turn (waiting − convs) / turns, and per conversation (convs − base) / turns. */
  perTurn: { heapUsed: number; external: number; rss: number; store: number };
  perConversation: { heapUsed: number; external: number; rss: number; store: number };
  perStream: { heapUsed: number; external: number; rss: number };
  /** The same streams held by the bare node:http echo: what any open stream costs. */
  perBareStream: { heapUsed: number; external: number; rss: number };
  resumed: {
    live: number;
    afterRestart: number;
    finished: number;
    failed: number;
    /** Turns still waiting right after the restart, before any answer reached the new process. */
    waitingAfterRestart: number;
    /** Turns not in the sample, left waiting at the end. */
    stillWaiting: number;
    seconds: number;
  };
  /** GET /conversations/:id, one at a time: with only the warm-up in the store, and with N turns. */
  view: { empty: Percentiles; full: Percentiles };
  setupSeconds: number;
}

const per = (a: NodeJS.MemoryUsage, b: NodeJS.MemoryUsage, n: number) => ({
  heapUsed: (b.heapUsed - a.heapUsed) / n,
  external: (b.external - a.external) / n,
  rss: (b.rss - a.rss) / n,
});

export async function measureMemory(turns: number, streams: number, sample: number): Promise<MemoryResult> {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-bench-hub-'));
  let hub = await startHub(dir);
  try {
    const started = performance.now();
    const clients: HubClient[] = [];
    for (let index = 0; index < Math.ceil(turns / PER_SESSION); index++) {
      const client = new HubClient(hub.info.url);
      await client.open(hub.info.publishableKey);
      clients.push(client);
    }
    // Warm-up through the same paths (message, view, answer), so code loaded lazily is in `base`.
    const warm = { client: clients[0]!, conversation: await clients[0]!.conversation() };
    for (let turn = 1; turn <= WARM_TURNS; turn++) {
      await warm.client.send(warm.conversation, { text: userText(turn), registry: REGISTRY });
      await waitFor(hub, (m) => (m.turns.waiting ?? 0) === 1, 'warm-up');
      await answerAll([warm]);
      await waitFor(hub, (m) => (m.turns.done ?? 0) === turn, 'warm-up');
    }
    const emptyViews = await timeViews(Array.from({ length: VIEW_PROBES }, () => warm));
    const base = await hub.ask<Measured>({ type: 'measure' });

    const visits: Visit[] = [];
    await pool(
      Array.from({ length: turns }, (_, index) => clients[index % clients.length]!),
      CONCURRENCY,
      async (client) => {
        visits.push({ client, conversation: await client.conversation() });
      },
    );
    const convs = await hub.ask<Measured>({ type: 'measure' });

    await pool(visits, CONCURRENCY, async ({ client, conversation }, index) => {
      await client.send(conversation, { text: userText(index), registry: REGISTRY });
    });
    await waitFor(hub, (m) => (m.turns.waiting ?? 0) === turns, 'waiting turns');
    const setupSeconds = (performance.now() - started) / 1000;
    const waiting = await hub.ask<Measured>({ type: 'measure' });
    const fullViews = await timeViews(visits.slice(-VIEW_PROBES));

    // A visitor still on the page keeps its event stream open while the turn waits.
    const open = visits.slice(0, streams).map(({ client, conversation }) => client.stream(conversation));
    await Promise.all(open.map((stream) => stream.ready));
    const withStreams = await hub.ask<Measured>({ type: 'measure' });
    for (const stream of open) stream.close();

    // Resume `sample` random turns: half in this process, half after a restart on the same store
    // (every other turn must still be waiting after the restart: nothing lived only in memory).
    const resumeStart = performance.now();
    const shuffled = [...visits].sort(() => Math.random() - 0.5).slice(0, Math.min(sample, turns));
    const live = shuffled.slice(0, Math.floor(shuffled.length / 2));
    const later = shuffled.slice(live.length);
    await answerAll(live);
    await waitFor(hub, (m) => (m.turns.waiting ?? 0) === turns - live.length, 'live resume');
    await checkFinished(live);
    await hub.stop();
    hub = await startHub(dir);
    const restarted = await hub.ask<Counts>({ type: 'counts' });
    const moved = later.map(({ client, conversation }) => {
      const again = new HubClient(hub.info.url);
      again.token = client.token;
      return { client: again, conversation };
    });
    await answerAll(moved);
    const end = await waitFor(hub, (m) => (m.turns.waiting ?? 0) === turns - shuffled.length, 'resume');
    await checkFinished(moved);
    const seconds = (performance.now() - resumeStart) / 1000;

    return {
      turns,
      phases: { base, convs, waiting, streams: withStreams },
      streams,
      perTurn: {
        ...per(convs.memory, waiting.memory, turns),
        store: (waiting.storeBytes - convs.storeBytes) / turns,
      },
      perConversation: {
        ...per(base.memory, convs.memory, turns),
        store: (convs.storeBytes - base.storeBytes) / turns,
      },
      perStream: per(waiting.memory, withStreams.memory, streams),
      perBareStream: await bareStreamCost(streams),
      resumed: {
        live: live.length,
        afterRestart: later.length,
        finished: (end.turns.done ?? 0) - WARM_TURNS,
        failed: end.turns.failed ?? 0,
        waitingAfterRestart: restarted.turns.waiting ?? 0,
        stillWaiting: end.turns.waiting ?? 0,
        seconds,
      },
      view: { empty: percentiles(emptyViews), full: percentiles(fullViews) },
      setupSeconds,
    };
  } finally {
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
