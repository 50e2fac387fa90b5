// `npm run bench`: tools/call items_list (a page of 50 from a 10,000-item collection) on our /mcp
// against two baselines in the same run, at 1, 2 and 50 concurrent clients: a bare SDK v2 server
// that does nothing (tiny and page-sized constants), and the same-work server (same Fastify + SDK
// transport, same SQLite page read, none of our checks or bookkeeping), which isolates our own cost.
// Each server runs in its own process; the load generator runs here. The machine is shared, so
// every cell is measured BENCH_MCP_ROUNDS times (default 3), the targets interleaved (ours and
// same-work back to back), and the medians are reported (ratios: the median of each round's ratio). Results go to
// test-results/bench/ as JSON and a markdown table (`npm run docs:refresh` copies them to bench/results/).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const root = resolve(import.meta.dirname, '../..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 2;
const CONCURRENCY = (process.env.BENCH_MCP_CLIENTS ?? '1,2,50').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_MCP_ROUNDS ?? 3);

interface Target {
  name: 'ours' | 'sameWork' | 'bare' | 'barePage';
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
    (target.name === 'ours' || target.name === 'sameWork') &&
    json.result.structuredContent?.items?.length !== 50
  ) {
    throw new Error(`${target.name}: expected a page of 50 items`);
  }
}

async function measure(target: Target, connections: number) {
  const options = { url: target.url, method: 'POST', headers: target.headers, body, connections };
  await autocannon({ ...options, duration: WARMUP_S });
  const cpuBefore = cpuTimeMs(target.process.pid);
  const result = await autocannon({ ...options, duration: DURATION_S });
  const cpuMs = cpuTimeMs(target.process.pid) - cpuBefore;
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(
      `${target.name} @${connections}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    );
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    /** The server process's CPU time per answered request (user + system). */
    cpuUsPerRequest: (cpuMs * 1000) / Math.max(1, result.requests.total),
  };
}

/**
 * CPU milliseconds a process has used (Linux /proc, clock ticks of 10 ms). On a shared machine
 * throughput depends on what else runs; the CPU a server spends per request much less so.
 */
function cpuTimeMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

type Cell = Awaited<ReturnType<typeof measure>>;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
/** The median of each measure over the rounds (each taken on its own: p99 is not the p99 of one round). */
const medianCell = (cells: Cell[]): Cell => ({
  rps: median(cells.map((cell) => cell.rps)),
  p50: median(cells.map((cell) => cell.p50)),
  p99: median(cells.map((cell) => cell.p99)),
  total: cells.reduce((sum, cell) => sum + cell.total, 0),
  cpuUsPerRequest: median(cells.map((cell) => cell.cpuUsPerRequest)),
});

const ours = await start('ours', 'bench/mcp/ours-server.ts');
const sameWork = await start('sameWork', 'bench/mcp/same-work-server.ts');
const bare = await start('bare', 'bench/mcp/bare-server.ts');
const barePage = await start('barePage', 'bench/mcp/bare-server.ts', { BARE_ANSWER: 'page' });
const targets = [ours, sameWork, bare, barePage];
const rows = [];
try {
  for (const target of targets) await check(target);
  for (const connections of CONCURRENCY) {
    const rounds: Record<Target['name'], Cell>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate which goes first so none always gets the warmer (or busier) machine.
      // Ours and same-work always back to back (their ratio is the result), which goes first
      // alternating, the bare pair after them likewise.
      const order = round % 2 === 0 ? [ours, sameWork, bare, barePage] : [sameWork, ours, barePage, bare];
      const results = {} as Record<Target['name'], Cell>;
      for (const target of order) results[target.name] = await measure(target, connections);
      rounds.push(results);
      console.log(
        `${String(connections).padStart(2)} clients, round ${round + 1}/${ROUNDS}: ${targets.map((target) => `${target.name} ${results[target.name].rps.toFixed(0)}`).join(' · ')} req/s`,
      );
    }
    const cell = (name: Target['name']) => medianCell(rounds.map((round) => round[name]));
    const ratios = (baseline: Target['name']) => rounds.map((round) => round.ours.rps / round[baseline].rps);
    const ratio = (baseline: Target['name']) => median(ratios(baseline));
    const oursOverSameWork = ratios('sameWork');
    const row = {
      connections,
      rounds: ROUNDS,
      ours: cell('ours'),
      sameWork: cell('sameWork'),
      bare: cell('bare'),
      barePage: cell('barePage'),
      ratioRpsSameWork: median(oursOverSameWork),
      /** The lowest and highest ours / same-work of the rounds: how far one round can be trusted. */
      ratioRpsSameWorkRange: [Math.min(...oursOverSameWork), Math.max(...oursOverSameWork)],
      ratioRps: ratio('bare'),
      ratioRpsPage: ratio('barePage'),
      /** Same-work's CPU per request over ours: the share of our CPU that is the same work. */
      ratioCpuSameWork: median(
        rounds.map((round) => round.sameWork.cpuUsPerRequest / round.ours.cpuUsPerRequest),
      ),
      perRound: rounds.map((round) => ({
        ours: round.ours.rps,
        sameWork: round.sameWork.rps,
        bare: round.bare.rps,
        barePage: round.barePage.rps,
      })),
    };
    rows.push(row);
    console.log(
      `${String(connections).padStart(2)} clients (median of ${ROUNDS}): ours ${row.ours.rps.toFixed(0)} req/s (p50 ${row.ours.p50} ms, p99 ${row.ours.p99} ms) · same-work ${row.sameWork.rps.toFixed(0)} · bare ${row.bare.rps.toFixed(0)} · bare+page ${row.barePage.rps.toFixed(0)} · ours/same-work ${row.ratioRpsSameWork.toFixed(2)}× (CPU/request ${row.ours.cpuUsPerRequest.toFixed(0)} vs ${row.sameWork.cpuUsPerRequest.toFixed(0)} µs: ${row.ratioCpuSameWork.toFixed(2)}×), ours/bare ${row.ratioRps.toFixed(2)}×`,
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
  durationSeconds: DURATION_S,
  rounds: ROUNDS,
  machine,
  rows,
};
const table = [
  `# /mcp tools/call benchmark — ${at}`,
  '',
  `\`tools/call items_list\` (a page of 50 from a 10,000-item storage collection: bearer lookup, exact grant, input validation, SQLite reads, output validation, usage row) against two baselines on the same SDK v2 transport (low-level \`Server\` + stateless \`NodeStreamableHTTPServerTransport\`, JSON responses):`,
  '',
  '- *same-work*: the same Fastify + SDK setup as ours, handling an exchange as ours does (closed only if its client left), doing the same SQLite page read (same SQL, same seeded file, same summaries, cursor and tool result) with no authentication, grant, validation, usage row or rate limit — **ours / same-work is our own cost** (target: our overhead ≤ 20 %, i.e. ≥ 0.83×);',
  '- *bare*: plain `node:http` + SDK answering a constant, a tiny one; *bare+page*: a constant as large as our page.',
  '',
  `Same run, servers in their own processes, load generator (autocannon) in this one. ${DURATION_S} s per cell after a ${WARMUP_S} s warm-up, ${ROUNDS} rounds with the targets interleaved: ours and same-work always measured back to back, alternating which goes first; medians shown (a ratio is the median of the rounds' ratios). The last two columns are each server process's CPU time per answered request (Linux /proc): on a shared machine throughput moves with whatever else runs, CPU per request much less. ${machine.cpus} CPUs (${machine.cpu}) shared with other work, Node ${machine.node}.`,
  '',
  '| clients | ours req/s | ours p50 / p99 (ms) | same-work req/s | same-work p50 / p99 (ms) | bare req/s | bare+page req/s | **ours / same-work** | its rounds, lowest – highest | ours / bare | ours / bare+page | CPU µs/request ours / same-work | same-work CPU / ours |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.connections} | ${row.ours.rps.toFixed(0)} | ${row.ours.p50} / ${row.ours.p99} | ${row.sameWork.rps.toFixed(0)} | ${row.sameWork.p50} / ${row.sameWork.p99} | ${row.bare.rps.toFixed(0)} | ${row.barePage.rps.toFixed(0)} | **${row.ratioRpsSameWork.toFixed(2)}×** | ${row.ratioRpsSameWorkRange.map((value) => `${value.toFixed(2)}×`).join(' – ')} | ${row.ratioRps.toFixed(2)}× | ${row.ratioRpsPage.toFixed(2)}× | ${row.ours.cpuUsPerRequest.toFixed(0)} / ${row.sameWork.cpuUsPerRequest.toFixed(0)} | ${row.ratioCpuSameWork.toFixed(2)}× |`,
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
