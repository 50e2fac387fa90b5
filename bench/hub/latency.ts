// Measurement 2: the time from the page POSTing a browser-tool result to the next `interrupt`
// arriving on its open SSE stream — through our hub (answer → the turn resumes → the scripted
// model, instant, calls the tool again → the interrupt is persisted and streamed) and through a
// bare node:http echo that writes one event per POST. Both in child processes, same client code,
// blocks interleaved so neither always runs on the warmer machine.
import { performance } from 'node:perf_hooks';
import type { Child } from './children.js';
import { REGISTRY, RESULT, userText } from './fixtures.js';
import { HubClient, interruptOf } from './hub-client.js';
import { SseStream } from './sse.js';
import { type Percentiles, percentiles } from './stats.js';

/** Round trips measured per turn; the hub's model calls the tool once more to end the block. */
export const PER_TURN = 10;

export type HubInfo = { url: string; publishableKey: string };

/** A server's SQL statements and commits (ours only) and CPU microseconds so far, asked for over IPC. */
export interface Usage {
  statements: number;
  commits: number;
  cpuMicros: number;
  /** Of `cpuMicros`, the main thread's (`/proc`, 10 ms ticks); the rest is helper threads. */
  mainThreadMicros?: number;
  /** The main thread's GC pauses: scavenges (`minor`) and mark-compact steps (`major`). */
  gcPauseMicros?: { minor: number; major: number };
}
type UsageOf = () => Promise<Usage>;

export function usageOf(child: Child<unknown>): UsageOf {
  return async () => {
    const { statements, commits, cpu, mainThreadMicros, gcPauseMicros } = await child.ask<{
      statements?: number;
      commits?: number;
      cpu: NodeJS.CpuUsage;
      mainThreadMicros?: number;
      gcPauseMicros?: { minor: number; major: number };
    }>({ type: 'usage' });
    return {
      statements: statements ?? 0,
      commits: commits ?? 0,
      cpuMicros: cpu.user + cpu.system,
      mainThreadMicros,
      gcPauseMicros,
    };
  };
}

export const NO_USAGE: Usage = { statements: 0, commits: 0, cpuMicros: 0 };

export const minus = (a: Usage, b: Usage): Usage => ({
  statements: a.statements - b.statements,
  commits: a.commits - b.commits,
  cpuMicros: a.cpuMicros - b.cpuMicros,
});

export const plus = (a: Usage, b: Usage): Usage => ({
  statements: a.statements + b.statements,
  commits: a.commits + b.commits,
  cpuMicros: a.cpuMicros + b.cpuMicros,
});

/**
 * One turn on a fresh conversation (so history stays short): PER_TURN measured round trips, and
 * what the hub used during them (read between, never during, the timed windows).
 */
export async function oursBlock(client: HubClient, usage: UsageOf): Promise<[number[], Usage]> {
  const conversation = await client.conversation();
  const stream = client.stream(conversation);
  await stream.ready;
  const samples: number[] = [];
  let used: Usage = NO_USAGE;
  try {
    await client.send(conversation, { text: userText(1), registry: REGISTRY });
    let asked = await stream.next('interrupt', 0);
    const before = await usage();
    for (let round = 0; round < PER_TURN; round++) {
      const start = performance.now();
      const [, next] = await Promise.all([
        client.answer(interruptOf(asked.event.data).id, { result: RESULT }),
        stream.next('interrupt', asked.index + 1),
      ]);
      samples.push(next.event.at - start);
      asked = next;
    }
    used = minus(await usage(), before);
    await client.answer(interruptOf(asked.event.data).id, { result: RESULT });
    await stream.next('turn.done', asked.index + 1);
  } finally {
    stream.close();
  }
  return [samples, used];
}

let streamCounter = 0;

/** The same round trips against the echo, with the same headers and body. */
async function bareBlock(
  url: string,
  headers: Record<string, string>,
  usage: UsageOf,
): Promise<[number[], Usage]> {
  const key = `s${++streamCounter}`;
  const stream = new SseStream(`${url}/events?stream=${key}`, headers);
  await stream.ready;
  const samples: number[] = [];
  const body = JSON.stringify({ result: RESULT });
  const before = await usage();
  try {
    let index = -1;
    for (let round = 0; round < PER_TURN; round++) {
      const start = performance.now();
      const [response, next] = await Promise.all([
        fetch(`${url}/answer?stream=${key}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body,
        }),
        stream.next('interrupt', index + 1),
      ]);
      await response.text();
      samples.push(next.event.at - start);
      index = next.index;
    }
  } finally {
    stream.close();
  }
  return [samples, minus(await usage(), before)];
}

/** The statements of one round trip, the second of a turn (answer → next interrupt streamed). */
async function recordRoundTrip(client: HubClient, hub: Child<HubInfo>): Promise<string[]> {
  const conversation = await client.conversation();
  const stream = client.stream(conversation);
  await stream.ready;
  try {
    await client.send(conversation, { text: userText(1), registry: REGISTRY });
    let asked = await stream.next('interrupt', 0);
    await client.answer(interruptOf(asked.event.data).id, { result: RESULT });
    asked = await stream.next('interrupt', asked.index + 1);
    await hub.ask({ type: 'record' });
    await client.answer(interruptOf(asked.event.data).id, { result: RESULT });
    asked = await stream.next('interrupt', asked.index + 1);
    const { statements } = await hub.ask<{ statements: string[] }>({ type: 'recorded' });
    // The turn's last round trips end it, so the conversation is left as the others are.
    for (let left = PER_TURN - 2; left >= 0; left--) {
      await client.answer(interruptOf(asked.event.data).id, { result: RESULT });
      asked = await stream.next(left === 0 ? 'turn.done' : 'interrupt', asked.index + 1);
    }
    return statements;
  } finally {
    stream.close();
  }
}

export interface LatencyResult {
  ours: Percentiles;
  bare: Percentiles;
  /** ours − bare at each percentile: what the hub adds. */
  added: { p50: number; p95: number; p99: number };
  /** SQL statements the hub runs per round trip (mean over the measured ones), at the driver. */
  statementsPerRoundTrip: number;
  /** Commits per round trip: transactions committed and writes run outside one. */
  commitsPerRoundTrip: number;
  /** The statements of one round trip after the warm-up, in the order the hub ran them. */
  oneRoundTrip: string[];
  /** Server CPU time per round trip (user + system, ms): less sensitive to a busy machine. */
  cpuMsPerRoundTrip: { ours: number; bare: number };
}

export async function measureLatency(
  hub: Child<HubInfo>,
  echo: Child<{ url: string }>,
  roundTrips: number,
): Promise<LatencyResult> {
  const client = new HubClient(hub.info.url);
  await client.open(hub.info.publishableKey);
  const oursUsage = usageOf(hub);
  const bareUsage = usageOf(echo);
  const blocks = Math.max(1, Math.ceil(roundTrips / PER_TURN));
  const ours: number[] = [];
  const bare: number[] = [];
  let oursUsed: Usage = NO_USAGE;
  let bareCpu = 0;
  const runOurs = async () => {
    const [samples, used] = await oursBlock(client, oursUsage);
    ours.push(...samples);
    oursUsed = plus(oursUsed, used);
  };
  const runBare = async () => {
    const [samples, used] = await bareBlock(echo.info.url, client.headers, bareUsage);
    bare.push(...samples);
    bareCpu += used.cpuMicros;
  };
  // Warm-up (JIT, statement caches, connection pools), then forget it.
  for (let block = 0; block < 5; block++) {
    await runOurs();
    await runBare();
  }
  const oneRoundTrip = await recordRoundTrip(client, hub);
  ours.length = 0;
  bare.length = 0;
  oursUsed = NO_USAGE;
  bareCpu = 0;
  for (let block = 0; block < blocks; block++) {
    for (const run of block % 2 === 0 ? [runOurs, runBare] : [runBare, runOurs]) await run();
  }
  const o = percentiles(ours);
  const b = percentiles(bare);
  return {
    ours: o,
    bare: b,
    added: { p50: o.p50 - b.p50, p95: o.p95 - b.p95, p99: o.p99 - b.p99 },
    statementsPerRoundTrip: oursUsed.statements / ours.length,
    commitsPerRoundTrip: oursUsed.commits / ours.length,
    oneRoundTrip,
    cpuMsPerRoundTrip: { ours: oursUsed.cpuMicros / 1000 / ours.length, bare: bareCpu / 1000 / bare.length },
  };
}
