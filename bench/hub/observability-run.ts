// `npm run bench` (hub, issue 32): the server CPU per browser round trip with metrics and traces
// off and on, measured in this one run; written to test-results/bench/hub-observability.{json,md}
// (`npm run docs:refresh` copies them to bench/results/). BENCH_DURATION scales the round trips
// (50 per second, as bench/hub/run.ts). BENCH_ON=metrics or BENCH_ON=traces turns on only that one
// in the on arm, to see what each costs (the goal is for both); BENCH_ON=none turns on nothing, so
// the arms are the same and the difference shows the method's own error. HUB_BENCH_TRACES_SAMPLE_RATIO
// sets DIOSC_TRACES_SAMPLE_RATIO in every hub process (0: traces on, no turn sampled).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, root, startChild } from './children.js';
import { type HubInfo, PER_TURN } from './latency.js';
import {
  type GenerationResult,
  METRICS_TOKEN,
  measureObservability,
  QUIET_MS,
  SCRAPE_EVERY_MS,
  startOtlpSink,
  summarize,
  WARM_UP_BLOCKS,
} from './observability.js';

// Longer than the other hub measurements: the effect sought is a few percent, about the size of the
// difference between two identical processes over a short run.
const DURATION_S = Number(process.env.BENCH_DURATION ?? 40);
const ROUND_TRIPS = Math.max(100, Math.round(50 * DURATION_S));
const GOAL_PERCENT = 5;
const ON = process.env.BENCH_ON ?? 'both';
if (!['both', 'metrics', 'traces', 'none'].includes(ON))
  throw new Error('BENCH_ON is both, metrics, traces or none');

const startedAt = new Date();
const loadBefore = loadavg();
const sink = await startOtlpSink();
const PROCESSES_PER_ARM = 2;
/** Processes started afresh this many times, one set after another: six processes an arm in all. */
const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 3);
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
const onEnv = {
  ...((ON === 'both' || ON === 'metrics') && { HUB_BENCH_METRICS_TOKEN: METRICS_TOKEN }),
  ...((ON === 'both' || ON === 'traces') && { HUB_BENCH_OTLP_URL: sink.url }),
};
const generations: GenerationResult[] = [];
try {
  for (let generation = 0; generation < GENERATIONS; generation++) {
    const arms: { off: Child<HubInfo>[]; on: Child<HubInfo>[] } = { off: [], on: [] };
    try {
      // Started off, on, on, off — then on, off, off, on in the next generation: neither arm is
      // always the older process, nor always the one started first or last.
      for (let index = 0; index < PROCESSES_PER_ARM; index++) {
        const order = (index + generation) % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
        for (const arm of order) arms[arm].push(await start(arm === 'on' ? onEnv : {}));
      }
      generations.push(
        await measureObservability(
          arms,
          Math.ceil(ROUND_TRIPS / GENERATIONS),
          'HUB_BENCH_METRICS_TOKEN' in onEnv,
        ),
      );
    } finally {
      await Promise.all([...arms.off, ...arms.on].map((child) => child.stop()));
    }
  }
} finally {
  sink.server.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
const result = summarize(generations, sink, {
  warmUpBlocks: WARM_UP_BLOCKS,
  scrapeEveryMs: SCRAPE_EVERY_MS,
  processesPerArm: PROCESSES_PER_ARM,
  generations: GENERATIONS,
});

const met = result.cpuOverheadPercent <= GOAL_PERCENT;
const ms = (value: number) => value.toFixed(2);
const idleShare =
  (((result.idleCpuMsPerSecond.on - result.idleCpuMsPerSecond.off) * result.wallMsPerRoundTrip) /
    1000 /
    result.cpuMsPerRoundTrip.off) *
  100;
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
  idleSharePercent: idleShare,
  goal: { cpuOverheadPercentAtMost: GOAL_PERCENT, met },
};
const markdown = `# Hub benchmark: metrics and traces on vs off — ${report.at}

${report.machine.cpus} CPUs (${report.machine.cpu}), Node ${report.machine.node}; load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')} before, ${report.machine.loadavg.after.map((v) => v.toFixed(2)).join(' ')} after (the machine is shared). ${report.seconds.toFixed(0)} s in all; both arms measured in this one run.

| goal (issue 32) | measured | met |
|---|---|:-:|
| turning ${ON === 'both' ? 'metrics and traces' : ON === 'none' ? 'nothing (both arms the same)' : `${ON} (only)`} on costs ≤ ${GOAL_PERCENT} % server CPU per browser round trip | ${result.cpuOverheadPercent.toFixed(1)} % ± ${result.uncertaintyPercent.toFixed(1)} % (${ms(result.cpuMsPerRoundTrip.on)} ms on vs ${ms(result.cpuMsPerRoundTrip.off)} ms off) | ${met ? 'yes' : '**no**'} |

Each generation's processes start and run together, and generations differ more than processes of one
(the machine's state): each generation's difference is one sample of the overhead —
${result.generationOverheadPercent.map((value) => `${value.toFixed(1)} %`).join(', ')} — and the ± is two standard errors of their mean.
Processes of one arm spread by ${result.spreadPercent.off.toFixed(1)} % (off) and ${result.spreadPercent.on.toFixed(1)} % (on), as a standard deviation.

${GENERATIONS} generations of ${PROCESSES_PER_ARM * 2} hub processes, one after another (the real app over SQLite, each its own store,
\`bench/hub/hub-server.ts\`), ${PROCESSES_PER_ARM} an arm in each, ${GENERATIONS * PROCESSES_PER_ARM} an arm in all; the same scripted turns as the round-trip measurement of \`hub.md\`: a fresh conversation per block,
${PER_TURN} measured browser-tool round trips each (answer POST → next \`interrupt\` on the open stream).
**Off**: as shipped. **On**: ${ON === 'both' ? '' : `(here ${ON} only) `}\`DIOSC_METRICS_TOKEN\` and \`DIOSC_TRACES_OTLP_URL\` set — every counter and
histogram of the turn, a span for the turn, each model step (with OpenTelemetry's \`gen_ai.*\`
attributes), each wait; the spans batched and sent over OTLP/HTTP (protobuf), from the hub's span sending thread, to a sink in the
benchmark process, and \`/metrics\` scraped ${result.method.scrapeEveryMs === 0 ? 'before every block' : `at most every ${result.method.scrapeEveryMs / 1000} s`} (${result.exported.scrapes} scrapes,
${(result.exported.scrapeBytes / Math.max(1, result.exported.scrapes) / 1024).toFixed(1)} KB each).
${result.method.warmUpBlocks} blocks a side of warm-up first in each generation, then forgotten. Blocks interleaved, cycling
through every rotation of the processes forwards and backwards. A process's CPU (user + system) is
all it used from the first measured block to the end of the last — the spans it makes and exports
after a round trip, its scrapes, each turn's start and end included — over its round trips; its CPU
inside the timed windows alone is the next column. An arm's figure is the mean of its processes.

| | server CPU per round trip (ms) | in the timed windows (ms) | idle CPU (ms/s) | p50 (ms) | p95 (ms) | p99 (ms) | n |
|---|---:|---:|---:|---:|---:|---:|---:|
${result.sides.map((side) => `| ${side.name} | ${ms(side.cpuMsPerRoundTrip)} | ${ms(side.windowCpuMsPerRoundTrip)} | ${side.idleCpuMsPerSecond.toFixed(1)} | ${ms(side.latency.p50)} | ${ms(side.latency.p95)} | ${ms(side.latency.p99)} | ${side.latency.n} |`).join('\n')}
| **off** | **${ms(result.cpuMsPerRoundTrip.off)}** | ${ms(result.windowCpuMsPerRoundTrip.off)} | ${result.idleCpuMsPerSecond.off.toFixed(1)} | ${ms(result.latency.off.p50)} | ${ms(result.latency.off.p95)} | ${ms(result.latency.off.p99)} | ${result.latency.off.n} |
| **on** | **${ms(result.cpuMsPerRoundTrip.on)}** | ${ms(result.windowCpuMsPerRoundTrip.on)} | ${result.idleCpuMsPerSecond.on.toFixed(1)} | ${ms(result.latency.on.p50)} | ${ms(result.latency.on.p95)} | ${ms(result.latency.on.p99)} | ${result.latency.on.n} |

Where each arm's CPU per round trip went (ms; the main thread's from Linux's per-thread clock, in 10 ms ticks):

| | main thread | of it, scavenges | of it, mark-compact | other threads (V8's concurrent GC and compiles, libuv; on: the span sending thread) |
|---|---:|---:|---:|---:|
${(['off', 'on'] as const).map((arm) => `| ${arm} | ${ms(result.breakdown[arm].mainThread)} | ${ms(result.breakdown[arm].scavenges)} | ${ms(result.breakdown[arm].markCompact)} | ${ms(result.breakdown[arm].helperThreads)} |`).join('\n')}

**Idle CPU** is each process's CPU per second over a ${QUIET_MS / 1000} s quiet spell after its generation's blocks (deferred
work settled first): what it costs with nothing to do (an arm's figure is the median of its processes: a
quiet spell is where V8 may shrink one process's heap). Here each process waited ${ms(result.wallMsPerRoundTrip)} ms of wall time per
round trip of its own (the others ran theirs), so the arms' idle difference makes
${idleShare.toFixed(1)} points of the overhead above; a process busier than these would owe less of it per round trip.

The sink received ${result.exported.requests} OTLP export requests, ${(result.exported.bytes / 1024).toFixed(0)} KB in all.
`;
const dir = join(root, 'test-results/bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'hub-observability.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(dir, 'hub-observability.md'), markdown);
console.log(`\n${markdown}\nWritten to test-results/bench/hub-observability.{json,md}`);
