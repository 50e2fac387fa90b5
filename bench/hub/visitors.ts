// Many visitors on one hub process, for the memory measurement: starting the hub on a store,
// waiting on what the store says, and the reads and answers a reloading kit makes.
import { performance } from 'node:perf_hooks';
import { type Child, startChild } from './children.js';
import { REPLY, RESULT } from './fixtures.js';
import type { HubClient } from './hub-client.js';
import { pool } from './pool.js';

export type HubInfo = { url: string; publishableKey: string };

/** What the hub process holds: turns by status, runners in flight, the store's size on disk. */
export interface Counts {
  turns: Record<string, number>;
  activeRunners: number;
  storeBytes: number;
}
export type Measured = Counts & { memory: NodeJS.MemoryUsage };

export interface Visit {
  client: HubClient;
  conversation: string;
}

/** Parallel visitors; SQLite serialises the writes anyway. */
export const CONCURRENCY = 16;

/** Our hub on the store in `dir`, one browser round trip per turn. */
export const startHub = (dir: string) =>
  startChild<HubInfo>('bench/hub/hub-server.ts', { HUB_BENCH_DIR: dir, HUB_BENCH_CALLS: '1' });

/** Polls the store (no GC) until `ready`, with no turn runner in flight. */
export async function waitFor(
  hub: Child<HubInfo>,
  ready: (counts: Counts) => boolean,
  what: string,
): Promise<Counts> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const counts = await hub.ask<Counts>({ type: 'counts' });
    if (ready(counts) && counts.activeRunners === 0) return counts;
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(counts.turns)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** GET /conversations/:id one at a time (no queueing), as a reloading kit calls it. */
export async function timeViews(visits: Visit[]): Promise<number[]> {
  const times: number[] = [];
  for (const { client, conversation } of visits) {
    const start = performance.now();
    await client.view(conversation);
    times.push(performance.now() - start);
  }
  return times;
}

/** Answers each conversation's pending interrupt the way a reloaded kit does: view, then answer. */
export async function answerAll(visits: Visit[]): Promise<void> {
  await pool(visits, CONCURRENCY, async ({ client, conversation }) => {
    const view = await client.view(conversation);
    const interrupt = view.pendingInterrupts[0];
    if (!interrupt) throw new Error(`${conversation}: no pending interrupt (turn ${view.turn?.status})`);
    await client.answer(interrupt.id, { result: RESULT });
  });
}

/** Every answered turn finished with the scripted reply — read back as a reloaded page would. */
export async function checkFinished(visits: Visit[]): Promise<void> {
  await pool(visits, CONCURRENCY, async ({ client, conversation }) => {
    const view = await client.view(conversation);
    const last = view.messages.at(-1);
    if (view.turn?.status !== 'done' || last?.role !== 'assistant' || !last.text.includes(REPLY)) {
      throw new Error(`${conversation}: not finished (${view.turn?.status})`);
    }
  });
}
