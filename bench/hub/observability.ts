// What turning metrics and traces on costs the hub per browser round trip (issue 32: ≤ 5 % server
// CPU). Four hub processes on stores of their own, the same scripted turns: two as shipped (both
// off), two with DIOSC_METRICS_TOKEN and DIOSC_TRACES_OTLP_URL set, their spans sent over OTLP/HTTP
// to a sink in this process (which reads and drops them) and /metrics scraped before their blocks.
// Blocks interleaved in every order so no side always runs on the warmer machine; CPU read from
// each server between, never during, the measured windows.
import { createServer, type Server } from 'node:http';
import type { Child } from './children.js';
import { HubClient } from './hub-client.js';
import { type HubInfo, oursBlock, PER_TURN, type Usage, usageOf } from './latency.js';
import { type Percentiles, percentiles } from './stats.js';

export const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef0123456789';

/** One hub process of the run: which arm it is in, and its CPU and latency over the measured blocks. */
export interface SideResult {
  name: string;
  arm: 'off' | 'on';
  cpuMsPerRoundTrip: number;
  latency: Percentiles;
}

export interface ObservabilityResult {
  roundTrips: number;
  /** Warm-up blocks a side (forgotten), and the least time between two scrapes (0: every block). */
  method: { warmUpBlocks: number; scrapeEveryMs: number; processesPerArm: number };
  sides: SideResult[];
  /** Server CPU per round trip (user + system, ms), the mean of each arm's processes. */
  cpuMsPerRoundTrip: { off: number; on: number };
  /** (on − off) / off, in percent, of the arms' means. */
  cpuOverheadPercent: number;
  /**
   * What two identical processes differ by in this run, in percent of their mean: each arm's second
   * process against its first. A difference between the arms smaller than this is not resolved.
   */
  noiseFloorPercent: { off: number; on: number };
  latency: { off: Percentiles; on: Percentiles };
  /** What the sink received: OTLP requests and bytes, and the scrapes taken. */
  exported: { requests: number; bytes: number; scrapes: number; scrapeBytes: number };
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

/** Blocks of round trips each side runs before the measured ones. */
const WARM_UP_BLOCKS = Number(process.env.BENCH_WARM_UP ?? 40);
/**
 * Least time between two scrapes of a process's `/metrics` (0: before each of its blocks). 15 s is
 * the interval Prometheus setups commonly use; scraping before every block (every few tens of
 * milliseconds of work) would weigh each round trip with a hundred times the scrapes production has.
 */
const SCRAPE_EVERY_MS = Number(process.env.BENCH_SCRAPE_MS ?? 15_000);

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
 * Each arm is two processes, twins: a process differs from its twin by its heap, its files and where
 * the scheduler put it, and that difference sits in any one on/off pair too. Two a side average it
 * out of the comparison and measure it (the noise floor).
 */
export async function measureObservability(
  arms: { off: Child<HubInfo>[]; on: Child<HubInfo>[] },
  sink: { received: { requests: number; bytes: number } },
  roundTrips: number,
): Promise<ObservabilityResult> {
  const sides = (['off', 'on'] as const).flatMap((arm) =>
    arms[arm].map((child, index) => ({
      name: `${arm} ${index + 1}`,
      arm,
      child,
      client: new HubClient(child.info.url),
      samples: [] as number[],
      cpuMicros: 0,
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
    if (side.arm === 'on' && Date.now() - side.scrapedAt >= SCRAPE_EVERY_MS) {
      await scrape(side.child.info.url);
      side.scrapedAt = Date.now();
    }
    const [block, used]: [number[], Usage] = await oursBlock(side.client, usageOf(side.child));
    side.samples.push(...block);
    side.cpuMicros += used.cpuMicros;
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
    side.cpuMicros = 0;
  }
  const blocks = Math.max(1, Math.ceil(roundTrips / PER_TURN));
  for (let block = 0; block < blocks; block++) await round(block);

  const results: SideResult[] = sides.map((side) => ({
    name: side.name,
    arm: side.arm,
    cpuMsPerRoundTrip: side.cpuMicros / 1000 / side.samples.length,
    latency: percentiles(side.samples),
  }));
  const armOf = (arm: 'off' | 'on') => results.filter((side) => side.arm === arm);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const cpuOf = (arm: 'off' | 'on') => mean(armOf(arm).map((side) => side.cpuMsPerRoundTrip));
  const twins = (arm: 'off' | 'on') => {
    const [first, second] = armOf(arm).map((side) => side.cpuMsPerRoundTrip);
    return second === undefined ? 0 : ((second - first!) / ((first! + second) / 2)) * 100;
  };
  const samplesOf = (arm: 'off' | 'on') =>
    sides.filter((side) => side.arm === arm).flatMap((side) => side.samples);
  const cpu = { off: cpuOf('off'), on: cpuOf('on') };
  return {
    roundTrips: samplesOf('on').length,
    method: { warmUpBlocks: WARM_UP_BLOCKS, scrapeEveryMs: SCRAPE_EVERY_MS, processesPerArm: arms.on.length },
    sides: results,
    cpuMsPerRoundTrip: cpu,
    cpuOverheadPercent: ((cpu.on - cpu.off) / cpu.off) * 100,
    noiseFloorPercent: { off: twins('off'), on: twins('on') },
    latency: { off: percentiles(samplesOf('off')), on: percentiles(samplesOf('on')) },
    exported: { ...sink.received, scrapes: scrapes.count, scrapeBytes: scrapes.bytes },
  };
}
