// What turning metrics and traces on costs the hub per browser round trip (issue 32: ≤ 5 % server
// CPU). Two hub processes on stores of their own, the same scripted turns: one as shipped (both
// off), one with DIOSC_METRICS_TOKEN and DIOSC_TRACES_OTLP_URL set, its spans sent over OTLP/HTTP
// to a sink in this process (which reads and drops them) and /metrics scraped before every block.
// Blocks interleaved so neither always runs on the warmer machine; CPU read from each server
// between, never during, the measured windows.
import { createServer, type Server } from 'node:http';
import type { Child } from './children.js';
import { HubClient } from './hub-client.js';
import { type HubInfo, oursBlock, PER_TURN, type Usage, usageOf } from './latency.js';
import { type Percentiles, percentiles } from './stats.js';

export const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef0123456789';

export interface ObservabilityResult {
  roundTrips: number;
  /** Warm-up blocks a side (forgotten), and the least time between two scrapes (0: every block). */
  method: { warmUpBlocks: number; scrapeEveryMs: number };
  /** Server CPU per round trip (user + system, ms). */
  cpuMsPerRoundTrip: { off: number; on: number };
  /** (on − off) / off, in percent. */
  cpuOverheadPercent: number;
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
/** Least time between two scrapes of `/metrics` (0: before every block of the metered side). */
const SCRAPE_EVERY_MS = Number(process.env.BENCH_SCRAPE_MS ?? 0);

export async function measureObservability(
  off: Child<HubInfo>,
  on: Child<HubInfo>,
  sink: { received: { requests: number; bytes: number } },
  roundTrips: number,
): Promise<ObservabilityResult> {
  const sides = [
    { name: 'off' as const, child: off, client: new HubClient(off.info.url) },
    { name: 'on' as const, child: on, client: new HubClient(on.info.url) },
  ];
  for (const side of sides) await side.client.open(side.child.info.publishableKey);
  const samples = { off: [] as number[], on: [] as number[] };
  const cpu = { off: 0, on: 0 };
  const scrapes = { count: 0, bytes: 0 };
  const scrape = async () => {
    const response = await fetch(`${on.info.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
    scrapes.bytes += (await response.text()).length;
    scrapes.count++;
  };
  let scrapedAt = Number.NEGATIVE_INFINITY;
  const run = async (side: (typeof sides)[number]) => {
    if (side.name === 'on' && Date.now() - scrapedAt >= SCRAPE_EVERY_MS) {
      await scrape();
      scrapedAt = Date.now();
    }
    const [block, used]: [number[], Usage] = await oursBlock(side.client, usageOf(side.child));
    samples[side.name].push(...block);
    cpu[side.name] += used.cpuMicros;
  };
  // Warm-up (JIT, statement caches, the exporter's first batches), then forget it. A server in
  // service has run its span and metric code many thousands of times; a short warm-up would
  // measure that code before the JIT has compiled it, which production never pays for long.
  for (let block = 0; block < WARM_UP_BLOCKS; block++) for (const side of sides) await run(side);
  samples.off.length = 0;
  samples.on.length = 0;
  cpu.off = 0;
  cpu.on = 0;
  const blocks = Math.max(1, Math.ceil(roundTrips / PER_TURN));
  for (let block = 0; block < blocks; block++) {
    for (const side of block % 2 === 0 ? sides : [...sides].reverse()) await run(side);
  }
  const offMs = cpu.off / 1000 / samples.off.length;
  const onMs = cpu.on / 1000 / samples.on.length;
  return {
    roundTrips: samples.on.length,
    method: { warmUpBlocks: WARM_UP_BLOCKS, scrapeEveryMs: SCRAPE_EVERY_MS },
    cpuMsPerRoundTrip: { off: offMs, on: onMs },
    cpuOverheadPercent: ((onMs - offMs) / offMs) * 100,
    latency: { off: percentiles(samples.off), on: percentiles(samples.on) },
    exported: { ...sink.received, scrapes: scrapes.count, scrapeBytes: scrapes.bytes },
  };
}
