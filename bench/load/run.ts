// `npm run bench` (load part): the mixed load of mix.ts against our server in a child process over
// SQLite, for 60 seconds (`--seconds N` or BENCH_LOAD_SECONDS shortens it; `--workers N`), then
// the reconciliation. Writes test-results/bench/load.{json,md}; exits 1 on any discrepancy.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../../packages/server/src/store/dialect.js';
import { root, startChild } from '../hub/children.js';
import { streamsCaughtUp } from './catch-up.js';
import type { LoadTarget } from './load-app.js';
import { kindRows, type LoadReport, renderLoad } from './load-report.js';
import { runMix } from './mix.js';
import { reconcile } from './reconcile.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string' }, workers: { type: 'string' } },
});
const seconds = Number(values.seconds ?? process.env.BENCH_LOAD_SECONDS ?? 60);
const workers = Number(values.workers ?? 8);

const dir = mkdtempSync(join(tmpdir(), 'diosc-bench-load-'));
const startedAt = new Date();
const loadBefore = loadavg();
const server = await startChild<LoadTarget>('bench/load/load-server.ts', { LOAD_DIR: dir });
const store = await openStore({ sqlitePath: join(dir, 'diosc.sqlite') });
try {
  console.log(`load · ${workers} workers for ${seconds} s against ${server.info.url}`);
  const run = await runMix(server.info, { seconds, workers });

  await streamsCaughtUp(store.db, run.received);
  run.recordStreams();
  await run.close();
  await server.stop();

  const reconciliation = await reconcile(store.db, run.ledger);
  const kinds = kindRows(run);
  const ok = kinds.reduce((sum, row) => sum + row.ok, 0);
  const errors = run.outcomes.length - ok;
  const report: LoadReport = {
    benchmark: 'load: a mixed run on loopback, then reconciliation',
    at: startedAt.toISOString(),
    seconds: run.seconds,
    workers,
    store: 'SQLite',
    machine: {
      cpus: availableParallelism(),
      cpu: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadavg: { before: loadBefore, after: loadavg() },
    },
    kinds,
    total: { ok, errors, perSecond: ok / run.seconds },
    reconciliation,
  };
  const out = join(root, 'test-results/bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'load.json'), `${JSON.stringify(report, null, 2)}\n`);
  const markdown = renderLoad(report);
  writeFileSync(join(out, 'load.md'), markdown);
  console.log(`\n${markdown}\nWritten to test-results/bench/load.{json,md}`);
  if (reconciliation.problems.length > 0) process.exitCode = 1;
} finally {
  await server.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
