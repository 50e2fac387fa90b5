// `npm run bench` (hub, issue 32): the server CPU per browser round trip with metrics and traces
// off and on, measured in this one run; written to test-results/bench/hub-observability.{json,md}
// (`npm run docs:refresh` copies them to bench/results/). BENCH_DURATION scales the round trips
// (50 per second, as bench/hub/run.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, root, startChild } from './children.js';
import { type HubInfo, PER_TURN } from './latency.js';
import {
  METRICS_TOKEN,
  measureObservability,
  type ObservabilityResult,
  startOtlpSink,
} from './observability.js';

// Longer than the other hub measurements: the effect sought is a few percent, about the size of the
// difference between two identical processes over a short run.
const DURATION_S = Number(process.env.BENCH_DURATION ?? 40);
const ROUND_TRIPS = Math.max(100, Math.round(50 * DURATION_S));
const GOAL_PERCENT = 5;

const startedAt = new Date();
const loadBefore = loadavg();
const sink = await startOtlpSink();
const PROCESSES_PER_ARM = 2;
const dirs: string[] = [];
const start = (env: Record<string, string> = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-bench-obs-'));
  dirs.push(dir);
  return startChild<HubInfo>('bench/hub/hub-server.ts', {
    HUB_BENCH_DIR: dir,
    HUB_BENCH_CALLS: '11',
    ...env,
  });
};
const arms: { off: Child<HubInfo>[]; on: Child<HubInfo>[] } = { off: [], on: [] };
let result: ObservabilityResult;
try {
  // Started off, on, on, off: neither arm is always the older process.
  for (let index = 0; index < PROCESSES_PER_ARM; index++) {
    const order = index % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
    for (const arm of order) {
      arms[arm].push(
        await start(
          arm === 'on' ? { HUB_BENCH_METRICS_TOKEN: METRICS_TOKEN, HUB_BENCH_OTLP_URL: sink.url } : {},
        ),
      );
    }
  }
  result = await measureObservability(arms, sink, ROUND_TRIPS);
} finally {
  await Promise.all([...arms.off, ...arms.on].map((child) => child.stop()));
  sink.server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

const met = result.cpuOverheadPercent <= GOAL_PERCENT;
const ms = (value: number) => value.toFixed(2);
const pct = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)} %`;
const report = {
  benchmark: 'hub: server CPU per browser round trip with metrics and traces off and on',
  at: startedAt.toISOString(),
  seconds: (Date.now() - startedAt.getTime()) / 1000,
  machine: {
    cpus: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadavg: { before: loadBefore, after: loadavg() },
  },
  ...result,
  goal: { cpuOverheadPercentAtMost: GOAL_PERCENT, met },
};
const markdown = `# Hub benchmark: metrics and traces on vs off — ${report.at}

${report.machine.cpus} CPUs (${report.machine.cpu}), Node ${report.machine.node}; load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')} before, ${report.machine.loadavg.after.map((v) => v.toFixed(2)).join(' ')} after (the machine is shared). ${report.seconds.toFixed(0)} s in all; both arms measured in this one run.

| goal (issue 32) | measured | met |
|---|---|:-:|
| turning metrics and traces on costs ≤ ${GOAL_PERCENT} % server CPU per browser round trip | ${result.cpuOverheadPercent.toFixed(1)} % (${ms(result.cpuMsPerRoundTrip.on)} ms on vs ${ms(result.cpuMsPerRoundTrip.off)} ms off) | ${met ? 'yes' : '**no**'} |

Noise floor of this run — two processes of one arm, twins, against each other: ${pct(result.noiseFloorPercent.off)} (off), ${pct(result.noiseFloorPercent.on)} (on).
A difference between the arms within these is not resolved by one run.

${PROCESSES_PER_ARM * 2} hub processes (the real app over SQLite, each its own store, \`bench/hub/hub-server.ts\`), ${PROCESSES_PER_ARM} an
arm, the same scripted turns as the round-trip measurement of \`hub.md\`: a fresh conversation per block,
${PER_TURN} measured browser-tool round trips each (answer POST → next \`interrupt\` on the open stream).
**Off**: as shipped. **On**: \`DIOSC_METRICS_TOKEN\` and \`DIOSC_TRACES_OTLP_URL\` set — every counter and
histogram of the turn, a span for the turn, each model step (with OpenTelemetry's \`gen_ai.*\`
attributes), each wait; the spans batched and sent over OTLP/HTTP (protobuf) to a sink in the
benchmark process, and \`/metrics\` scraped ${result.method.scrapeEveryMs === 0 ? 'before every block' : `at most every ${result.method.scrapeEveryMs / 1000} s`} (${result.exported.scrapes} scrapes,
${(result.exported.scrapeBytes / result.exported.scrapes / 1024).toFixed(1)} KB each; the scrape's own CPU falls between the measured windows).
${result.method.warmUpBlocks} blocks a side of warm-up first, then forgotten. Blocks interleaved, cycling
through every rotation of the processes forwards and backwards; CPU (user + system) read from each
server process between blocks. An arm's figure is the mean of its processes.

| | server CPU per round trip (ms) | p50 (ms) | p95 (ms) | p99 (ms) | n |
|---|---:|---:|---:|---:|---:|
${result.sides.map((side) => `| ${side.name} | ${ms(side.cpuMsPerRoundTrip)} | ${ms(side.latency.p50)} | ${ms(side.latency.p95)} | ${ms(side.latency.p99)} | ${side.latency.n} |`).join('\n')}
| **off** | **${ms(result.cpuMsPerRoundTrip.off)}** | ${ms(result.latency.off.p50)} | ${ms(result.latency.off.p95)} | ${ms(result.latency.off.p99)} | ${result.latency.off.n} |
| **on** | **${ms(result.cpuMsPerRoundTrip.on)}** | ${ms(result.latency.on.p50)} | ${ms(result.latency.on.p95)} | ${ms(result.latency.on.p99)} | ${result.latency.on.n} |

The sink received ${result.exported.requests} OTLP export requests, ${(result.exported.bytes / 1024).toFixed(0)} KB in all.
`;
const dir = join(root, 'test-results/bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'hub-observability.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(dir, 'hub-observability.md'), markdown);
console.log(`\n${markdown}\nWritten to test-results/bench/hub-observability.{json,md}`);
