// `npm run bench`: tools/call items_list (a page of 50 from a 10,000-item collection) on our /mcp
// against baselines in the same run, at 1, 2 and 50 concurrent clients: the same-work server (same
// Fastify + SDK transport, same SQLite page read, none of our checks or bookkeeping), which isolates
// our own cost, and a bare SDK v2 server that does nothing (tiny and page-sized constants). Each
// server runs in its own process; the load generator runs here.
//
// The machine is shared and its speed drifts by tens of percent over seconds, more than the effect
// measured. So targets are compared in many short interleaved slices (BENCH_MCP_PAIRS pairs of
// BENCH_MCP_SLICE seconds, default 40 × 2 s, which goes first alternating), each pair's ratio taken
// on its own, and the median pair reported with its quartiles; CPU per request is each server's
// CPU time (all threads, nanosecond scheduler statistics) over the slice's answered requests.
// A second same-work server is measured against the first the same way (BENCH_MCP_CONTROL=0 skips
// it): the noise floor of the method, whose ratios should be 1.00. Results go to test-results/bench/ as JSON
// and a markdown table (`npm run docs:refresh` copies them to bench/results/).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const root = resolve(import.meta.dirname, '../..');
const SLICE_S = Number(process.env.BENCH_MCP_SLICE ?? 2);
const PAIRS = Number(process.env.BENCH_MCP_PAIRS ?? 40);
/** The bare baselines only set the scale: fewer pairs. */
const BARE_PAIRS = Math.max(1, Math.round(PAIRS / 4));
const WARMUP_S = 5;
const CONTROL = process.env.BENCH_MCP_CONTROL !== '0';
const CONCURRENCY = (process.env.BENCH_MCP_CLIENTS ?? '1,2,50').split(',').map(Number);

interface Target {
  name: 'ours' | 'sameWork' | 'bare' | 'barePage' | 'control';
  url: string;
  headers: Record<string, string>;
  process: ChildProcess;
}

async function start(
  name: Target['name'],
  script: string,
  env: Record<string, string> = {},
): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolveLine, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolveLine);
    child.once('exit', (code) => reject(new Error(`${name} server exited with ${code}`)));
  });
  const { url, token } = JSON.parse(line) as { url: string; token?: string };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (token) headers.authorization = `Bearer ${token}`;
  return { name, url, headers, process: child };
}

const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'items_list', arguments: { collection: 'bench', limit: 50 } },
});

/** One real call first: the benchmark must measure successful answers, not fast refusals. */
async function check(target: Target): Promise<void> {
  const response = await fetch(target.url, { method: 'POST', headers: target.headers, body });
  const json = (await response.json()) as {
    result?: { isError?: boolean; structuredContent?: { items?: unknown[] } };
  };
  if (response.status !== 200 || !json.result || json.result.isError) {
    throw new Error(`${target.name}: the check call failed: ${JSON.stringify(json).slice(0, 300)}`);
  }
  if (
    target.name !== 'bare' &&
    target.name !== 'barePage' &&
    json.result.structuredContent?.items?.length !== 50
  ) {
    throw new Error(`${target.name}: expected a page of 50 items`);
  }
}

interface Slice {
  requests: number;
  p50: number;
  p99: number;
  /** CPU microseconds of every thread of the server process during the slice (Linux schedstat). */
  cpuUs: number;
}

/** One slice of load on one target: `seconds` of `connections` clients. */
async function slice(target: Target, connections: number, seconds: number): Promise<Slice> {
  const options = { url: target.url, method: 'POST', headers: target.headers, body, connections };
  const cpuBefore = cpuTimeUs(target.process.pid);
  const result = await autocannon({ ...options, duration: seconds });
  const cpuUs = cpuTimeUs(target.process.pid) - cpuBefore;
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(
      `${target.name} @${connections}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  }
  return { requests: result.requests.total, p50: result.latency.p50, p99: result.latency.p99, cpuUs };
}

/**
 * CPU microseconds a process has used, all its threads (garbage collector and libuv threads too),
 * from Linux's per-thread scheduler statistics (nanoseconds, not the 10 ms ticks of /proc/PID/stat:
 * a slice of a second or two needs the precision).
 */
function cpuTimeUs(pid: number | undefined): number {
  try {
    let ns = 0;
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // A thread that ended between the listing and the read.
      }
    }
    return ns / 1000;
  } catch {
    return Number.NaN;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
/** The first and third quartile: how far one pair of slices can be trusted. */
const quartiles = (values: number[]): [number, number] => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return [at(0.25), at(0.75)];
};

/** A target's slices summed: requests a second, median latencies, CPU per answered request. */
function summary(slices: Slice[], seconds: number) {
  const requests = slices.reduce((sum, one) => sum + one.requests, 0);
  return {
    rps: requests / (slices.length * seconds),
    p50: median(slices.map((one) => one.p50)),
    p99: median(slices.map((one) => one.p99)),
    total: requests,
    cpuUsPerRequest: slices.reduce((sum, one) => sum + one.cpuUs, 0) / Math.max(1, requests),
  };
}

/** The whole machine's CPU time so far (Linux `/proc/stat`, in ticks): all of it, and what the hypervisor stole. */
function machineTicks(): { total: number; steal: number } {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n', 1)[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  return { total: fields.reduce((sum, value) => sum + value, 0), steal: fields[7] ?? 0 };
}

/** The share of the machine's CPU time the hypervisor took for other guests since `from` (%). */
function stealPercentSince(from: ReturnType<typeof machineTicks>): number {
  const now = machineTicks();
  return now.total === from.total ? 0 : (100 * (now.steal - from.steal)) / (now.total - from.total);
}

/**
 * `a` against `b` in interleaved pairs of slices (which goes first alternates): a pair's two
 * slices run seconds apart, so a slower or faster spell of the shared machine falls on both.
 * Per pair: a's throughput over b's, and b's CPU per request over a's (both < 1 when a costs more).
 */
async function pairs(a: Target, b: Target, connections: number, count: number) {
  const slices: Record<'a' | 'b', Slice[]> = { a: [], b: [] };
  for (let pair = 0; pair < count; pair++) {
    const order = pair % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const);
    for (const side of order) slices[side].push(await slice(side === 'a' ? a : b, connections, SLICE_S));
  }
  const throughput = slices.a.map((one, pair) => one.requests / slices.b[pair]!.requests);
  const cpu = slices.a.map((one, pair) => {
    const other = slices.b[pair]!;
    return other.cpuUs / other.requests / (one.cpuUs / one.requests);
  });
  return {
    a: summary(slices.a, SLICE_S),
    b: summary(slices.b, SLICE_S),
    ratioRps: median(throughput),
    ratioRpsQuartiles: quartiles(throughput),
    ratioCpu: median(cpu),
    ratioCpuQuartiles: quartiles(cpu),
  };
}

const ours = await start('ours', 'bench/mcp/ours-server.ts');
const sameWork = await start('sameWork', 'bench/mcp/same-work-server.ts');
const bare = await start('bare', 'bench/mcp/bare-server.ts');
const barePage = await start('barePage', 'bench/mcp/bare-server.ts', { BARE_ANSWER: 'page' });
// The control: a second same-work server measured against the first exactly as ours is. Its
// ratios should be 1.00; how far they are from it is what this machine's noise does to a result.
const control = CONTROL ? await start('control', 'bench/mcp/same-work-server.ts') : undefined;
const targets = [ours, sameWork, bare, barePage, ...(control ? [control] : [])];
const rows = [];
try {
  for (const target of targets) await check(target);
  for (const connections of CONCURRENCY) {
    const ticks = machineTicks();
    for (const target of targets) await slice(target, connections, WARMUP_S);
    const main = await pairs(ours, sameWork, connections, PAIRS);
    const floor = await pairs(ours, bare, connections, BARE_PAIRS);
    const page = await pairs(ours, barePage, connections, BARE_PAIRS);
    const noise = control ? await pairs(control, sameWork, connections, PAIRS) : undefined;
    const row = {
      connections,
      pairs: PAIRS,
      ours: main.a,
      sameWork: main.b,
      bare: floor.b,
      barePage: page.b,
      /** Ours over same-work: the median pair's throughput ratio, and its quartiles. */
      ratioRpsSameWork: main.ratioRps,
      ratioRpsSameWorkQuartiles: main.ratioRpsQuartiles,
      /** Same-work's CPU per request over ours: our overhead is 1 / this − 1. */
      ratioCpuSameWork: main.ratioCpu,
      ratioCpuSameWorkQuartiles: main.ratioCpuQuartiles,
      ratioRps: floor.ratioRps,
      ratioRpsPage: page.ratioRps,
      /** CPU time the hypervisor gave other guests while this row ran (% of the machine's). */
      stealPercent: stealPercentSince(ticks),
      ...(noise && {
        control: {
          ratioRps: noise.ratioRps,
          ratioRpsQuartiles: noise.ratioRpsQuartiles,
          ratioCpu: noise.ratioCpu,
          ratioCpuQuartiles: noise.ratioCpuQuartiles,
        },
      }),
    };
    rows.push(row);
    console.log(
      `${String(connections).padStart(2)} clients (${PAIRS} pairs of ${SLICE_S} s): ours ${row.ours.rps.toFixed(0)} req/s (p50 ${row.ours.p50} ms, p99 ${row.ours.p99} ms) · same-work ${row.sameWork.rps.toFixed(0)} · bare ${row.bare.rps.toFixed(0)} · bare+page ${row.barePage.rps.toFixed(0)} · ours/same-work ${row.ratioRpsSameWork.toFixed(2)}× (CPU/request ${row.ours.cpuUsPerRequest.toFixed(0)} vs ${row.sameWork.cpuUsPerRequest.toFixed(0)} µs: ${row.ratioCpuSameWork.toFixed(2)}×), ours/bare ${row.ratioRps.toFixed(2)}× · steal ${row.stealPercent.toFixed(1)} %${row.control ? ` · control ${row.control.ratioRps.toFixed(2)}× (CPU ${row.control.ratioCpu.toFixed(2)}×)` : ''}`,
    );
  }
} finally {
  for (const target of targets) target.process.kill('SIGTERM');
}

const at = new Date().toISOString();
const machine = { cpus: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version };
const report = {
  benchmark: 'mcp tools/call items_list (limit 50)',
  at,
  sliceSeconds: SLICE_S,
  pairs: PAIRS,
  barePairs: BARE_PAIRS,
  warmupSeconds: WARMUP_S,
  machine,
  rows,
};
const times = (value: number) => `${value.toFixed(2)}×`;
const range = ([low, high]: [number, number]) => `${times(low)} – ${times(high)}`;
const overhead = (cpuRatio: number) => `${Math.round((1 / cpuRatio - 1) * 100)} %`;
const table = [
  `# /mcp tools/call benchmark — ${at}`,
  '',
  `\`tools/call items_list\` (a page of 50 from a 10,000-item storage collection: bearer lookup, exact grant, input validation, SQLite reads, output validation, usage row) against baselines on the same SDK v2 transport (low-level \`Server\` + stateless \`NodeStreamableHTTPServerTransport\`, JSON responses):`,
  '',
  '- *same-work*: the same Fastify + SDK setup as ours, handling an exchange as ours does (closed only if its client left), doing the same SQLite page read (same SQL, same seeded file, same summaries, cursor and tool result) with no authentication, grant, validation, usage row or rate limit — **ours / same-work is our own cost** (target: our overhead ≤ 20 %, i.e. same-work CPU / ours and ours / same-work throughput ≥ 0.83×);',
  '- *bare*: plain `node:http` + SDK answering a constant, a tiny one; *bare+page*: a constant as large as our page.',
  '',
  `Same run, servers in their own processes, load generator (autocannon) in this one. After a ${WARMUP_S} s warm-up of each, ours and same-work run in ${PAIRS} interleaved pairs of ${SLICE_S} s slices (which goes first alternating; ours against each bare baseline in ${BARE_PAIRS}): a pair's two slices are seconds apart, so the machine's drift falls on both. Ratios are the median pair's, with the quartiles of the pairs; req/s and CPU per request are over all slices. CPU is each server process's time on the CPU, all threads, per answered request (Linux scheduler statistics). ${CONTROL ? "The control is a second same-work server against the first, measured the same way: its distance from 1.00× is the method's noise. " : ''}${machine.cpus} CPUs (${machine.cpu}) shared with other work, Node ${machine.node}; *steal* is the share of the machine's CPU time its hypervisor gave other guests while the row ran.`,
  '',
  `| clients | ours req/s | ours p50 / p99 (ms) | same-work req/s | same-work p50 / p99 (ms) | bare req/s | bare+page req/s | **ours / same-work** | its pairs, quartiles | CPU µs/request ours / same-work | **same-work CPU / ours** | its pairs, quartiles | our overhead (CPU) | ours / bare | ours / bare+page | steal |${CONTROL ? ' control: req/s, CPU |' : ''}`,
  `|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${CONTROL ? '---:|' : ''}`,
  ...rows.map(
    (row) =>
      `| ${row.connections} | ${row.ours.rps.toFixed(0)} | ${row.ours.p50} / ${row.ours.p99} | ${row.sameWork.rps.toFixed(0)} | ${row.sameWork.p50} / ${row.sameWork.p99} | ${row.bare.rps.toFixed(0)} | ${row.barePage.rps.toFixed(0)} | **${times(row.ratioRpsSameWork)}** | ${range(row.ratioRpsSameWorkQuartiles)} | ${row.ours.cpuUsPerRequest.toFixed(0)} / ${row.sameWork.cpuUsPerRequest.toFixed(0)} | **${times(row.ratioCpuSameWork)}** | ${range(row.ratioCpuSameWorkQuartiles)} | ${overhead(row.ratioCpuSameWork)} | ${times(row.ratioRps)} | ${times(row.ratioRpsPage)} | ${row.stealPercent.toFixed(1)} % |${row.control ? ` ${times(row.control.ratioRps)}, ${times(row.control.ratioCpu)} |` : ''}`,
  ),
  '',
  'What the profile (`node --cpu-prof`) found, what changed and what is left: [docs/mcp.md, Performance](../../docs/mcp.md#performance).',
  '',
].join('\n');
// Runs write under test-results/; `npm run docs:refresh` copies them to bench/results/ (tracked).
const dir = join(root, 'test-results/bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'mcp.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(dir, 'mcp.md'), table);
console.log(
  `\n${table}\nWritten to test-results/bench/mcp.{json,md}; \`npm run docs:refresh\` copies them to bench/results/`,
);
