// `npm run bench` (files): upload throughput of a 5 MB file through the hub's upload endpoint
// (session, permission, type check, chunked store) against a bare @fastify/multipart route that
// discards the bytes, and each server's peak resident memory while 10 uploads run at once — of
// 5 MB and of 20 MB files, to show the growth does not follow the file size (it streams). Each
// server runs in its own process (with --expose-gc, so a round starts from a settled heap); the
// load generator runs here. Results go to test-results/bench/files.{json,md}
// (`npm run docs:refresh` copies them to bench/results/).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const root = resolve(import.meta.dirname, '../..');
const MB = 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_FILE_ROUNDS ?? 8);
const CONCURRENT = 10;

interface Target {
  name: 'ours' | 'bare';
  url: string;
  process: ChildProcess;
  /** Where a file goes, with whatever headers the target needs (a fresh session each round). */
  prepare(): Promise<{ url: string; headers: Record<string, string> }>;
}

async function spawnServer(script: string): Promise<{ child: ChildProcess; info: Record<string, string> }> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolveLine, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolveLine);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, info: JSON.parse(line) as Record<string, string> };
}

async function ours(): Promise<Target> {
  const { child, info } = await spawnServer('bench/files/ours-server.ts');
  const base = `${info.url}/api/hub`;
  return {
    name: 'ours',
    url: info.url!,
    process: child,
    async prepare() {
      const headers = { origin: info.origin!, 'content-type': 'application/json' };
      const session = await fetch(`${base}/sessions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ publishableKey: info.publishableKey }),
      });
      const { token } = (await session.clone().json()) as { token?: string };
      if (!token)
        throw new Error(
          `session: ${session.status} ${JSON.stringify(await session.json().catch(() => null))}`,
        );
      const auth = { origin: info.origin!, authorization: `Bearer ${token}` };
      const created = await fetch(`${base}/conversations`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{}',
      });
      const { id } = (await created.json()) as { id: string };
      return { url: `${base}/conversations/${id}/files`, headers: auth };
    },
  };
}

async function bare(): Promise<Target> {
  const { child, info } = await spawnServer('bench/files/bare-server.ts');
  return {
    name: 'bare',
    url: info.url!,
    process: child,
    prepare: async () => ({ url: `${info.url}/upload`, headers: {} }),
  };
}

/** One multipart body per size, built once and sent as is (the client's memory is not measured). */
function multipart(size: number): { body: Uint8Array<ArrayBuffer>; type: string } {
  const boundary = `----bench${randomBytes(6).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), randomBytes(size), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body: new Uint8Array(body), type: `multipart/form-data; boundary=${boundary}` };
}

async function upload(
  to: { url: string; headers: Record<string, string> },
  file: ReturnType<typeof multipart>,
) {
  const response = await fetch(to.url, {
    method: 'POST',
    headers: { ...to.headers, 'content-type': file.type },
    body: file.body,
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`upload: ${response.status} ${text.slice(0, 200)}`);
}

async function memory(target: Target, reset = false): Promise<{ rss: number; peak: number }> {
  const response = await fetch(`${target.url}/__bench/memory${reset ? '?reset=1' : ''}`);
  return (await response.json()) as { rss: number; peak: number };
}

async function throughput(target: Target, file: ReturnType<typeof multipart>, size: number) {
  const to = await target.prepare();
  await upload(to, file);
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) await upload(to, file);
  const seconds = (performance.now() - started) / 1000;
  return { mbPerSecond: (ROUNDS * size) / MB / seconds, msPerUpload: (seconds * 1000) / ROUNDS };
}

/**
 * In a fresh server process, so nothing resident from earlier rounds hides the growth: one small
 * warm-up upload (code paths loaded, pools open), a settled baseline, then 10 uploads at once.
 */
async function concurrentPeak(start: () => Promise<Target>, file: ReturnType<typeof multipart>) {
  const target = await start();
  try {
    const to = await target.prepare();
    await upload(to, small);
    const before = await memory(target, true);
    await Promise.all(Array.from({ length: CONCURRENT }, () => upload(to, file)));
    const after = await memory(target);
    return { baselineMb: before.rss / MB, peakMb: after.peak / MB, growthMb: (after.peak - before.rss) / MB };
  } finally {
    target.process.kill('SIGTERM');
  }
}

const small = multipart(64 * 1024);
const five = multipart(5 * MB);
const twenty = multipart(20 * MB);
const results: Record<string, Record<string, unknown>> = {};
for (const [name, start] of [
  ['ours', ours],
  ['bare', bare],
] as const) {
  const target = await start();
  let throughput5: Awaited<ReturnType<typeof throughput>>;
  try {
    throughput5 = await throughput(target, five, 5 * MB);
  } finally {
    target.process.kill('SIGTERM');
  }
  results[name] = {
    throughput5,
    peak5: await concurrentPeak(start, five),
    peak20: await concurrentPeak(start, twenty),
  };
  console.log(`${name}: ${JSON.stringify(results[name])}`);
}

type Row = {
  throughput5: { mbPerSecond: number; msPerUpload: number };
  peak5: { baselineMb: number; peakMb: number; growthMb: number };
  peak20: { baselineMb: number; peakMb: number; growthMb: number };
};
const o = results.ours as Row;
const b = results.bare as Row;
const at = new Date().toISOString();
const machine = { cpus: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version };
const report = {
  benchmark: 'hub file upload: 5 MB throughput, peak memory during 10 concurrent uploads',
  at,
  rounds: ROUNDS,
  machine,
  ours: o,
  bare: b,
  ratios: {
    throughput: o.throughput5.mbPerSecond / b.throughput5.mbPerSecond,
    growth5: o.peak5.growthMb / Math.max(b.peak5.growthMb, 1),
    growth20: o.peak20.growthMb / Math.max(b.peak20.growthMb, 1),
    /** ≈ 1 when memory does not follow file size: 20 MB files cost what 5 MB files cost. */
    oursGrowth20Over5: o.peak20.growthMb / Math.max(o.peak5.growthMb, 1),
  },
};
const f = (n: number) => n.toFixed(1);
const table = [
  `# Hub file upload benchmark — ${at}`,
  '',
  `*ours*: \`POST /api/hub/conversations/:id/files\` on the real app over SQLite (visitor session, file permission, magic-byte type check, 256 KiB chunks written as they arrive, quota check and commit). *bare*: the same \`@fastify/multipart\` on a bare Fastify route that reads the file and discards it. Same run, each server in its own process, loopback HTTP; ${ROUNDS} sequential uploads after one warm-up for throughput; peak resident memory sampled every 5 ms in a fresh server process (after one 64 KiB warm-up upload and a GC) while ${CONCURRENT} uploads run at once. Buffering whole files would add ≥ ${CONCURRENT * 5} MB (5 MB files) and ≥ ${CONCURRENT * 20} MB (20 MB files). ${machine.cpus} CPUs (${machine.cpu}), Node ${machine.node}.`,
  '',
  '| measure | ours | bare | ours / bare |',
  '|---|---:|---:|---:|',
  `| 5 MB upload throughput (MB/s) | ${f(o.throughput5.mbPerSecond)} | ${f(b.throughput5.mbPerSecond)} | ${report.ratios.throughput.toFixed(2)}× |`,
  `| 5 MB upload time (ms) | ${f(o.throughput5.msPerUpload)} | ${f(b.throughput5.msPerUpload)} | |`,
  `| peak RSS growth, 10 × 5 MB at once (MB) | ${f(o.peak5.growthMb)} | ${f(b.peak5.growthMb)} | ${report.ratios.growth5.toFixed(2)}× |`,
  `| peak RSS growth, 10 × 20 MB at once (MB) | ${f(o.peak20.growthMb)} | ${f(b.peak20.growthMb)} | ${report.ratios.growth20.toFixed(2)}× |`,
  `| peak RSS (MB), 10 × 20 MB | ${f(o.peak20.peakMb)} | ${f(b.peak20.peakMb)} | |`,
  '',
  `Ours, 20 MB files over 5 MB files: ${report.ratios.oursGrowth20Over5.toFixed(2)}× the memory growth for 4× the bytes.`,
  '',
].join('\n');
const dir = join(root, 'test-results/bench');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'files.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(join(dir, 'files.md'), table);
console.log(
  `\n${table}\nWritten to test-results/bench/files.{json,md}; \`npm run docs:refresh\` copies them to bench/results/`,
);
