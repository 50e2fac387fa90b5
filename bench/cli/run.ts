// `npm run bench` (cli): how long the `diosc` program takes to be useful, the built bin against
// the same source run through tsx (how `npm start` and `npm run diosc` ran it before the build),
// in the same run: `diosc --help` until it exits, and `diosc start` on a data dir that already
// holds a store (a warm start, the everyday one) until GET /healthz answers 200. Then `npm start`
// with every output fresh (so it rebuilds nothing) until /healthz, alone: its old form rebuilt all
// workspaces, examples included, on every start, and that is not a baseline worth re-running.
//
// The machine is shared and its speed drifts, so the two are run in pairs, alternating which goes
// first, each pair's ratio taken on its own and the median reported (BENCH_CLI_PAIRS, default 10,
// after one warm-up of each). Wall-clock milliseconds from spawn, measured here. Results go to
// test-results/bench/cli.{json,md} (`npm run docs:refresh` copies them to bench/results/).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@diosc/server/testing';

const root = resolve(import.meta.dirname, '../..');
const PAIRS = Number(process.env.BENCH_CLI_PAIRS ?? 10);
const BIN = 'packages/server/dist/diosc.js';
const SOURCE = 'packages/server/src/cli/main.ts';

const exited = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });

/** Milliseconds from spawn to exit; the command must succeed. */
async function untilExit(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: root, stdio: 'ignore' });
  await exited(child);
  if (child.exitCode !== 0)
    throw new Error(`BENCH_CLI_FAILED: ${command} ${args.join(' ')} exited ${child.exitCode}`);
  return performance.now() - started;
}

/** Milliseconds from spawn until GET /healthz answers 200; then the whole process group is stopped. */
async function untilHealthy(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  // Its own process group: `npm start` runs the server as a grandchild, which must stop too.
  const child = spawn(command, args, {
    cwd: root,
    stdio: 'ignore',
    detached: true,
    env: { ...process.env, ...env, DIOSC_PORT: String(port), DIOSC_LOG_LEVEL: 'warn' },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`BENCH_CLI_FAILED: ${command} ${args.join(' ')} exited`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((done) => setTimeout(done, 10));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited(child);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** A and B in pairs, alternating which runs first; the warm-up pair is not counted. */
async function paired(run: (which: 0 | 1) => Promise<number>, pairs: number): Promise<[number[], number[]]> {
  const result: [number[], number[]] = [[], []];
  await run(0);
  await run(1);
  for (let pair = 0; pair < pairs; pair++) {
    const order: (0 | 1)[] = pair % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) result[which].push(await run(which));
  }
  return result;
}

// The bin and the kit and portal it serves, built and stamped as `npm start` would leave them.
execFileSync(process.execPath, ['scripts/builds.mjs', '@diosc/kit', '@diosc/portal', '@diosc/server'], {
  cwd: root,
  stdio: 'inherit',
});
const dataDir = mkdtempSync(join(tmpdir(), 'diosc-bench-cli-'));
const env = { DIOSC_DATA_DIR: dataDir, DIOSC_OWNER_PASSWORD: 'bench password' };
try {
  // The store made once, so every counted start is a warm one.
  await untilHealthy(process.execPath, [BIN, 'start'], env);

  const help = await paired(
    (which) =>
      untilExit(process.execPath, which === 0 ? [BIN, '--help'] : ['--import', 'tsx', SOURCE, '--help']),
    PAIRS,
  );
  const start = await paired(
    (which) =>
      untilHealthy(
        process.execPath,
        which === 0 ? [BIN, 'start'] : ['--import', 'tsx', SOURCE, 'start'],
        env,
      ),
    PAIRS,
  );
  const npmStart: number[] = [];
  await untilHealthy('npm', ['start'], env);
  for (let run = 0; run < PAIRS; run++) npmStart.push(await untilHealthy('npm', ['start'], env));

  const rows = [
    { measure: '`diosc --help` to exit', built: help[0], tsx: help[1] },
    { measure: '`diosc start` to /healthz 200 (warm)', built: start[0], tsx: start[1] },
  ].map(({ measure, built, tsx }) => ({
    measure,
    builtMs: median(built),
    tsxMs: median(tsx),
    ratio: median(built.map((ms, index) => ms / tsx[index]!)),
    samples: { built, tsx },
  }));
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${availableParallelism()} × ${cpus()[0]?.model ?? 'unknown'}`,
    pairs: PAIRS,
    rows,
    npmStart: { medianMs: median(npmStart), samples: npmStart },
  };
  const fmt = (ms: number) => (ms / 1000).toFixed(2);
  const table = `# diosc program start-up — ${report.date}

*built*: \`node ${BIN}\` (\`npm run build --workspace @diosc/server\`, what \`npm start\` and the bin run). *tsx*: \`node --import tsx ${SOURCE}\`, the same source through the TypeScript loader, as \`npm start\` and \`npm run diosc\` ran it before. Same run, ${PAIRS} pairs after one warm-up pair, alternating which goes first; medians of wall-clock seconds from spawn, and the median of the pairs' ratios. ${report.cpus}, Node ${report.node}.

| measure | built (s) | tsx (s) | built / tsx |
|---|---:|---:|---:|
${rows.map((row) => `| ${row.measure} | ${fmt(row.builtMs)} | ${fmt(row.tsxMs)} | ${row.ratio.toFixed(2)}× |`).join('\n')}

\`npm start\` with every output fresh (it checks the kit's, the portal's and the server's input digests, builds nothing, and runs the bin) to /healthz 200, warm: median ${fmt(report.npmStart.medianMs)} s over ${PAIRS} runs (npm's own start-up included).
`;
  const dir = join(root, 'test-results/bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cli.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(dir, 'cli.md'), table);
  console.log(
    `\n${table}\nWritten to test-results/bench/cli.{json,md}; \`npm run docs:refresh\` copies them to bench/results/`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
