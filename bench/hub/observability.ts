// What turning metrics and traces on costs the hub per browser round trip (issue 32: ≤ 5 % server
// CPU). Generations of four hub processes on stores of their own, the same scripted turns: two as
// shipped (both off), two with DIOSC_METRICS_TOKEN and DIOSC_TRACES_OTLP_URL set, their spans sent
// over OTLP/HTTP to a sink in this process (which reads and drops them) and /metrics scraped every
// 15 s. Blocks interleaved in every order so no side always runs on the warmer machine. A process's CPU
// is all it used over the measured blocks — the spans it makes and exports later, its scrapes, the
// turn's start and end — over its round trips; the CPU inside the timed windows alone is shown too.
import { createServer, type Server } from 'node:http';
import type { Child } from './children.js';
import { HubClient } from './hub-client.js';
import { type HubInfo, oursBlock, PER_TURN, type Usage, usageOf } from './latency.js';
import { mean, median, type Percentiles, percentiles, variance } from './stats.js';

export const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef0123456789';

/** One hub process of the run: which arm it is in, and its CPU and latency over the measured blocks. */
export interface SideResult {
  name: string;
  arm: 'off' | 'on';
  /** All the process's CPU over the measured blocks, per round trip (ms). */
  cpuMsPerRoundTrip: number;
  /** Its CPU inside the timed windows only, per round trip (ms): what the round trip itself costs. */
  windowCpuMsPerRoundTrip: number;
  /** Its CPU per second of a quiet spell after the blocks (ms/s): what it costs with nothing to do. */
  idleCpuMsPerSecond: number;
  /** Where `cpuMsPerRoundTrip` went (ms per round trip): see `CpuBreakdown`. */
  breakdown: CpuBreakdown;
  latency: Percentiles;
}

/**
 * A process's CPU over the measured blocks split by where it ran, per round trip (ms): its main
 * thread (JavaScript, the main thread's GC pauses, I/O callbacks) and the rest — V8's and libuv's
 * helper threads (concurrent marking and sweeping, optimizing compiles) and, with traces on, the
 * span sending thread (a worker with a V8 isolate of its own). Of the main thread's, its
 * GC pauses: scavenges and mark-compact steps.
 */
export interface CpuBreakdown {
  mainThread: number;
  helperThreads: number;
  scavenges: number;
  markCompact: number;
}

export interface ObservabilityResult {
  roundTrips: number;
  /** Warm-up blocks a side (forgotten), the least time between two scrapes (0: every block), the processes. */
  method: { warmUpBlocks: number; scrapeEveryMs: number; processesPerArm: number; generations: number };
  sides: SideResult[];
  /** Server CPU per round trip (user + system, ms), the mean of each arm's processes. */
  cpuMsPerRoundTrip: { off: number; on: number };
  /** The same inside the timed windows only. */
  windowCpuMsPerRoundTrip: { off: number; on: number };
  /** CPU per second with nothing to do (ms/s), each arm's median: timers, not round trips. */
  idleCpuMsPerSecond: { off: number; on: number };
  /** Each arm's mean of its processes' `breakdown`. */
  breakdown: { off: CpuBreakdown; on: CpuBreakdown };
  /** Per process, the wall time the measured blocks took over its round trips (ms): idle cost's share. */
  wallMsPerRoundTrip: number;
  /** (on − off) / off, in percent, of the arms' means. */
  cpuOverheadPercent: number;
  /** Each generation's own (on − off) / off, in percent: its processes started and ran together. */
  generationOverheadPercent: number[];
  /** Two standard errors of the overhead, from how far the generations' own figures spread. */
  uncertaintyPercent: number;
  /** How much the processes of one arm differ: their standard deviation in percent of their mean. */
  spreadPercent: { off: number; on: number };
  latency: { off: Percentiles; on: Percentiles };
  /** What the sink received: OTLP requests and bytes, and the scrapes taken. */
  exported: { requests: number; bytes: number; scrapes: number; scrapeBytes: number };
}

/** One generation of processes, measured: each side with its round-trip samples. */
export interface GenerationResult {
  sides: (SideResult & { samples: number[] })[];
  /** Wall time of the measured blocks (ms). */
  wallMs: number;
  scrapes: { count: number; bytes: number };
}

/** A stand-in collector: answers every OTLP/HTTP export 200 and keeps only the counts. */
export function startOtlpSink(): Promise<{
  url: string;
  server: Server;
  received: { requests: number; bytes: number };
}> {
  const received = { requests: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      received.bytes += chunk.length;
    });
    request.on('end', () => {
      received.requests++;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}/v1/traces`, server, received });
    });
  });
}

/** The quiet spell after the blocks in which each process's idle CPU is read. */
export const QUIET_MS = 5_000;
/** How long deferred work is given to settle before the quiet spell: past the hub's 5 s span export. */
const SETTLE_MS = 7_000;

/** Blocks of round trips each side runs before the measured ones. */
export const WARM_UP_BLOCKS = Number(process.env.BENCH_WARM_UP ?? 40);
/**
 * Least time between two scrapes of a process's `/metrics` (0: before each of its blocks). 15 s is
 * the interval Prometheus setups commonly use; scraping before every block (every few tens of
 * milliseconds of work) would weigh each round trip with a hundred times the scrapes production has.
 */
export const SCRAPE_EVERY_MS = Number(process.env.BENCH_SCRAPE_MS ?? 15_000);

/**
 * The order of the sides in block `index`: every rotation of them, forwards then backwards, so each
 * side runs in each position (first on a cold machine, last after the others) equally often.
 */
function orderOf(index: number, count: number): number[] {
  const rotation = index % count;
  const forwards = Array.from({ length: count }, (_, i) => (i + rotation) % count);
  return Math.floor(index / count) % 2 === 0 ? forwards : forwards.reverse();
}

/**
 * One generation: the arms' processes, started together, measured over the same interleaved blocks.
 * A process differs from its twin by its heap, its pages and where the scheduler put it, and keeps
 * that difference for life; more generations average more processes (`summarize`).
 */
export async function measureObservability(
  arms: { off: Child<HubInfo>[]; on: Child<HubInfo>[] },
  roundTrips: number,
  onHasMetrics: boolean,
): Promise<GenerationResult> {
  const sides = (['off', 'on'] as const).flatMap((arm) =>
    arms[arm].map((child, index) => ({
      name: `${arm} ${index + 1}`,
      arm,
      child,
      client: new HubClient(child.info.url),
      samples: [] as number[],
      usage: usageOf(child),
      windowCpuMicros: 0,
      cpuAtStart: 0,
      cpuMicros: 0,
      atStart: undefined as Usage | undefined,
      breakdownMicros: { mainThread: 0, helperThreads: 0, scavenges: 0, markCompact: 0 },
      scrapedAt: Number.NEGATIVE_INFINITY,
    })),
  );
  for (const side of sides) await side.client.open(side.child.info.publishableKey);
  const scrapes = { count: 0, bytes: 0 };
  const scrape = async (url: string) => {
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
    scrapes.bytes += (await response.text()).length;
    scrapes.count++;
  };
  const run = async (side: (typeof sides)[number]) => {
    if (side.arm === 'on' && onHasMetrics && Date.now() - side.scrapedAt >= SCRAPE_EVERY_MS) {
      await scrape(side.child.info.url);
      side.scrapedAt = Date.now();
    }
    const [block, used]: [number[], Usage] = await oursBlock(side.client, side.usage);
    side.samples.push(...block);
    side.windowCpuMicros += used.cpuMicros;
  };
  const round = async (index: number) => {
    for (const position of orderOf(index, sides.length)) await run(sides[position]!);
  };
  // Warm-up (JIT, statement caches, the exporter's first batches), then forget it. A server in
  // service has run its span and metric code many thousands of times; a short warm-up would
  // measure that code before the JIT has compiled it, which production never pays for long.
  for (let block = 0; block < WARM_UP_BLOCKS; block++) await round(block);
  for (const side of sides) {
    side.samples.length = 0;
    side.windowCpuMicros = 0;
    side.atStart = await side.usage();
    side.cpuAtStart = side.atStart.cpuMicros;
  }
  const blocks = Math.max(1, Math.ceil(roundTrips / PER_TURN));
  const measuredAt = performance.now();
  for (let block = 0; block < blocks; block++) await round(block);
  const wallMs = performance.now() - measuredAt;
  // Work a process deferred from its warm-up into these blocks stands for what it defers past them.
  const atEnd = await Promise.all(sides.map((side) => side.usage()));
  sides.forEach((side, index) => {
    const end = atEnd[index]!;
    const start = side.atStart!;
    side.cpuMicros = end.cpuMicros - side.cpuAtStart;
    const mainThread = (end.mainThreadMicros ?? 0) - (start.mainThreadMicros ?? 0);
    side.breakdownMicros = {
      mainThread,
      helperThreads: side.cpuMicros - mainThread,
      scavenges: (end.gcPauseMicros?.minor ?? 0) - (start.gcPauseMicros?.minor ?? 0),
      markCompact: (end.gcPauseMicros?.major ?? 0) - (start.gcPauseMicros?.major ?? 0),
    };
  });
  // Deferred work (span batches, exports) settles first; then nothing is asked of any process.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const quietFrom = await Promise.all(sides.map(async (side) => (await side.usage()).cpuMicros));
  const quietAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  const quietUntil = await Promise.all(sides.map(async (side) => (await side.usage()).cpuMicros));
  const quietSeconds = (performance.now() - quietAt) / 1000;

  return {
    sides: sides.map((side, index) => ({
      name: side.name,
      arm: side.arm,
      cpuMsPerRoundTrip: side.cpuMicros / 1000 / side.samples.length,
      windowCpuMsPerRoundTrip: side.windowCpuMicros / 1000 / side.samples.length,
      idleCpuMsPerSecond: (quietUntil[index]! - quietFrom[index]!) / 1000 / quietSeconds,
      breakdown: {
        mainThread: side.breakdownMicros.mainThread / 1000 / side.samples.length,
        helperThreads: side.breakdownMicros.helperThreads / 1000 / side.samples.length,
        scavenges: side.breakdownMicros.scavenges / 1000 / side.samples.length,
        markCompact: side.breakdownMicros.markCompact / 1000 / side.samples.length,
      },
      latency: percentiles(side.samples),
      samples: side.samples,
    })),
    wallMs,
    scrapes,
  };
}

/** Every generation's processes together: each arm's mean, and how far its processes spread. */
export function summarize(
  generations: GenerationResult[],
  sink: { received: { requests: number; bytes: number } },
  method: ObservabilityResult['method'],
): ObservabilityResult {
  const sides = generations.flatMap((generation, index) =>
    generation.sides.map((side) => ({ ...side, name: `${side.name} (generation ${index + 1})` })),
  );
  const armOf = (arm: 'off' | 'on') => sides.filter((side) => side.arm === arm);
  const cpus = (arm: 'off' | 'on') => armOf(arm).map((side) => side.cpuMsPerRoundTrip);
  const cpu = { off: mean(cpus('off')), on: mean(cpus('on')) };
  const windowCpuOf = (arm: 'off' | 'on') => mean(armOf(arm).map((side) => side.windowCpuMsPerRoundTrip));
  // Generations differ more than processes within one (the machine's state when they started), so
  // each generation's on/off difference is one paired sample of the overhead.
  const overheads = generations.map((generation) => {
    const of = (arm: 'off' | 'on') =>
      mean(generation.sides.filter((side) => side.arm === arm).map((side) => side.cpuMsPerRoundTrip));
    return ((of('on') - of('off')) / of('off')) * 100;
  });
  const samplesOf = (arm: 'off' | 'on') => armOf(arm).flatMap((side) => side.samples);
  const breakdownOf = (arm: 'off' | 'on'): CpuBreakdown => {
    const of = (part: keyof CpuBreakdown) => mean(armOf(arm).map((side) => side.breakdown[part]));
    return {
      mainThread: of('mainThread'),
      helperThreads: of('helperThreads'),
      scavenges: of('scavenges'),
      markCompact: of('markCompact'),
    };
  };
  const scrapes = generations.reduce(
    (sum, generation) => ({
      count: sum.count + generation.scrapes.count,
      bytes: sum.bytes + generation.scrapes.bytes,
    }),
    { count: 0, bytes: 0 },
  );
  return {
    roundTrips: samplesOf('on').length,
    method,
    sides: sides.map(({ samples: _samples, ...side }) => side),
    cpuMsPerRoundTrip: cpu,
    windowCpuMsPerRoundTrip: { off: windowCpuOf('off'), on: windowCpuOf('on') },
    // The median: a quiet spell is where V8 chooses to shrink its heap, one process at a time.
    idleCpuMsPerSecond: {
      off: median(armOf('off').map((side) => side.idleCpuMsPerSecond)),
      on: median(armOf('on').map((side) => side.idleCpuMsPerSecond)),
    },
    breakdown: { off: breakdownOf('off'), on: breakdownOf('on') },
    wallMsPerRoundTrip: mean(
      generations.map((generation) => generation.wallMs / (generation.sides[0]?.samples.length ?? 1)),
    ),
    cpuOverheadPercent: ((cpu.on - cpu.off) / cpu.off) * 100,
    generationOverheadPercent: overheads,
    uncertaintyPercent:
      overheads.length > 1 ? (2 * Math.sqrt(variance(overheads))) / Math.sqrt(overheads.length) : 0,
    spreadPercent: {
      off: (Math.sqrt(variance(cpus('off'))) / cpu.off) * 100,
      on: (Math.sqrt(variance(cpus('on'))) / cpu.on) * 100,
    },
    latency: { off: percentiles(samplesOf('off')), on: percentiles(samplesOf('on')) },
    exported: { ...sink.received, scrapes: scrapes.count, scrapeBytes: scrapes.bytes },
  };
}
