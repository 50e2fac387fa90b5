// `npm run bench`: tools/call items_list (a page of 50 from a 10,000-item collection) on our /mcp
// against a bare SDK v2 server that does nothing, in the same run, at 1, 2 and 50 concurrent
// clients. Each server runs in its own process; the load generator runs here. Results go to
// test-results/bench/ as JSON and a markdown table (`npm run docs:refresh` copies them to bench/results/).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

const root = resolve(import.meta.dirname, '../..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 2;
const CONCURRENCY = [1, 2, 50];

interface Target {
  name: 'ours' | 'bare' | 'barePage';
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
  if (target.name === 'ours' && json.result.structuredContent?.items?.length !== 50) {
    throw new Error('ours: expected a page of 50 items');
  }
}

async function measure(target: Target, connections: number) {
  const options = { url: target.url, method: 'POST', headers: target.headers, body, connections };
  await autocannon({ ...options, duration: WARMUP_S });
  const result = await autocannon({ ...options, duration: DURATION_S });
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
  };
}

const ours = await start('ours', 'bench/mcp/ours-server.ts');
const bare = await start('bare', 'bench/mcp/bare-server.ts');
const barePage = await start('barePage', 'bench/mcp/bare-server.ts', { BARE_ANSWER: 'page' });
const rows = [];
try {
  for (const target of [ours, bare, barePage]) await check(target);
  for (const connections of CONCURRENCY) {
    // Rotate which goes first so none always gets the warmer (or busier) machine.
    const order = [ours, bare, barePage];
    for (let turn = 0; turn < connections % 3; turn++) order.push(order.shift()!);
    const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
    for (const target of order) results[target.name] = await measure(target, connections);
    const row = {
      connections,
      ours: results.ours!,
      bare: results.bare!,
      barePage: results.barePage!,
      ratioRps: results.ours!.rps / results.bare!.rps,
      ratioRpsPage: results.ours!.rps / results.barePage!.rps,
    };
    rows.push(row);
    console.log(
      `${String(connections).padStart(2)} clients: ours ${row.ours.rps.toFixed(0)} req/s (p50 ${row.ours.p50} ms, p99 ${row.ours.p99} ms) · bare ${row.bare.rps.toFixed(0)} req/s · bare+page ${row.barePage.rps.toFixed(0)} req/s · ours/bare ${row.ratioRps.toFixed(2)}×, ours/bare+page ${row.ratioRpsPage.toFixed(2)}×`,
    );
  }
} finally {
  for (const target of [ours, bare, barePage]) target.process.kill('SIGTERM');
}

const at = new Date().toISOString();
const machine = { cpus: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version };
const report = {
  benchmark: 'mcp tools/call items_list (limit 50)',
  at,
  durationSeconds: DURATION_S,
  machine,
  rows,
};
const table = [
  `# /mcp tools/call benchmark — ${at}`,
  '',
  `\`tools/call items_list\` (a page of 50 from a 10,000-item storage collection: bearer lookup, exact grant, input validation, SQLite reads, output validation, usage row) against a bare SDK v2 server doing no work — same SDK transport (fresh low-level \`Server\` + stateless \`NodeStreamableHTTPServerTransport\` per request, JSON responses) on plain \`node:http\`, answering a constant: *bare* a tiny one, *bare+page* one as large as ours (50 items, structured + text). Same run, load generator (autocannon) in its own process. ${DURATION_S} s per cell after a ${WARMUP_S} s warm-up; ${machine.cpus} CPUs (${machine.cpu}), Node ${machine.node}. Target: ours ≥ 0.8× bare req/s.`,
  '',
  '| clients | ours req/s | ours p50 / p99 (ms) | bare req/s | bare p50 / p99 (ms) | bare+page req/s | ours / bare | ours / bare+page |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.connections} | ${row.ours.rps.toFixed(0)} | ${row.ours.p50} / ${row.ours.p99} | ${row.bare.rps.toFixed(0)} | ${row.bare.p50} / ${row.bare.p99} | ${row.barePage.rps.toFixed(0)} | ${row.ratioRps.toFixed(2)}× | ${row.ratioRpsPage.toFixed(2)}× |`,
  ),
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
