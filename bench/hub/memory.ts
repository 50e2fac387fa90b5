// Measurement 3: the memory of turns waiting on browser interrupts, and proof they resume.
// Our hub runs in a child process on a fresh SQLite store; this process plays the visitors over
// HTTP. The child weighs itself (full GC, process.memoryUsage()) at each phase:
//   base  — warmed up, nothing else;  convs — + N conversations (the baseline: no waiting turns);
//   waiting — + a turn waiting on a read_page interrupt in each;  streams — + open SSE streams.
// Then a random sample is answered across a restart (resume.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REGISTRY, userText } from './fixtures.js';
import { HubClient } from './hub-client.js';
import { pool } from './pool.js';
import { type Resumed, resumeSample } from './resume.js';
import { type Percentiles, percentiles } from './stats.js';
import { bareStreamCost, type IdleCost, idleCost } from './stream-cost.js';
import {
  answerAll,
  CONCURRENCY,
  type Measured,
  startHub,
  timeViews,
  type Visit,
  waitFor,
} from './visitors.js';

const WARM_TURNS = 5;
const VIEW_PROBES = 50;
/** Messages per visitor session stay under the assistant's per-minute cap (1,000). */
const PER_SESSION = 500;
/** How long the open streams sit idle while the hub's (and then the echo's) CPU is read. */
const IDLE_SECONDS = 10;

type PerItem = { heapUsed: number; external: number; rss: number };

export interface MemoryResult {
  turns: number;
  phases: Record<'base' | 'convs' | 'waiting' | 'streams', Measured>;
  streams: number;
  /** Bytes per waiting turn (waiting − convs) / turns, and per conversation (convs − base) / turns. */
  perTurn: PerItem & { store: number };
  perConversation: PerItem & { store: number };
  perStream: PerItem;
  /** The same streams held by the bare node:http echo: what any open stream costs. */
  perBareStream: PerItem;
  /** The open streams left idle (their turns waiting): the hub's CPU and statements, and the echo's CPU. */
  idle: { ours: IdleCost; bare: IdleCost };
  resumed: Resumed;
  /** GET /conversations/:id, one at a time: with only the warm-up in the store, and with N turns. */
  view: { empty: Percentiles; full: Percentiles };
  setupSeconds: number;
}

const per = (a: Measured, b: Measured, n: number): PerItem => ({
  heapUsed: (b.memory.heapUsed - a.memory.heapUsed) / n,
  external: (b.memory.external - a.memory.external) / n,
  rss: (b.memory.rss - a.memory.rss) / n,
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
      await waitFor(hub, (counts) => (counts.turns.waiting ?? 0) === 1, 'warm-up');
      await answerAll([warm]);
      await waitFor(hub, (counts) => (counts.turns.done ?? 0) === turn, 'warm-up');
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
    await waitFor(hub, (counts) => (counts.turns.waiting ?? 0) === turns, 'waiting turns');
    const setupSeconds = (performance.now() - started) / 1000;
    const waiting = await hub.ask<Measured>({ type: 'measure' });
    const fullViews = await timeViews(visits.slice(-VIEW_PROBES));

    // A visitor still on the page keeps its event stream open while the turn waits.
    const open = visits.slice(0, streams).map(({ client, conversation }) => client.stream(conversation));
    await Promise.all(open.map((stream) => stream.ready));
    const withStreams = await hub.ask<Measured>({ type: 'measure' });
    const idleOurs = await idleCost(hub, IDLE_SECONDS);
    for (const stream of open) stream.close();
    const bare = await bareStreamCost(streams, IDLE_SECONDS);

    const after = await resumeSample(hub, dir, visits, sample);
    hub = after.hub;
    return {
      turns,
      phases: { base, convs, waiting, streams: withStreams },
      streams,
      perTurn: { ...per(convs, waiting, turns), store: (waiting.storeBytes - convs.storeBytes) / turns },
      perConversation: { ...per(base, convs, turns), store: (convs.storeBytes - base.storeBytes) / turns },
      perStream: per(waiting, withStreams, streams),
      perBareStream: bare.perStream,
      idle: { ours: idleOurs, bare: bare.idle },
      resumed: after.resumed,
      view: { empty: percentiles(emptyViews), full: percentiles(fullViews) },
      setupSeconds,
    };
  } finally {
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
