// `npm run bench` (load part): the mixed load of mix.ts against our server in a child process, for
// 60 seconds (`--seconds N` or BENCH_LOAD_SECONDS shortens it; `--workers N`), then the
// reconciliation. On SQLite by default → test-results/bench/load.{json,md}. With `--postgres URL`
// (an admin URL; a throwaway database is made on it): two server processes on one PostgreSQL
// database, each worker answering and deciding on the other instance than the one it streams from
// → test-results/bench/load-postgres.{json,md}. Exits 1 on any discrepancy.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '@diosc/server';
import { createPostgresDatabase } from '@diosc/server/testing';
import { type Child, root, startChild } from '../hub/children.js';
import { streamsCaughtUp } from './catch-up.js';
import type { LoadTarget } from './load-app.js';
import { kindRows, type LoadReport, renderLoad } from './load-report.js';
import { runMix } from './mix.js';
import { reconcile } from './reconcile.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string' }, workers: { type: 'string' }, postgres: { type: 'string' } },
});
const seconds = Number(values.seconds ?? process.env.BENCH_LOAD_SECONDS ?? 60);
const workers = Number(values.workers ?? 8);

const dir = mkdtempSync(join(tmpdir(), 'diosc-bench-load-'));
const database = values.postgres
  ? await createPostgresDatabase(values.postgres, `diosc_load_${process.pid}`)
  : undefined;
const startedAt = new Date();
const loadBefore = loadavg();
const env = { LOAD_DIR: dir, ...(database ? { LOAD_DATABASE_URL: database.url } : {}) };
const servers: Child<LoadTarget>[] = [await startChild<LoadTarget>('bench/load/load-server.ts', env)];
if (database)
  servers.push(await startChild<LoadTarget>('bench/load/load-server.ts', { ...env, LOAD_ROLE: 'second' }));
const target = servers[0]!.info;
const store = await openStore({ databaseUrl: database?.url, sqlitePath: join(dir, 'diosc.sqlite') });
const stopAll = () => Promise.all(servers.map((server) => server.stop()));
try {
  console.log(
    `load · ${workers} workers for ${seconds} s against ${servers.map((s) => s.info.url).join(' and ')}`,
  );
  const run = await runMix(target, { seconds, workers, instances: servers.map((server) => server.info.url) });
  await streamsCaughtUp(store.db, run.received);
  run.recordStreams();
  await run.close();
  await stopAll();

  const reconciliation = await reconcile(store.db, run.ledger);
  const kinds = kindRows(run);
  const ok = kinds.reduce((sum, row) => sum + row.ok, 0);
  const report: LoadReport = {
    benchmark: 'load: a mixed run on loopback, then reconciliation',
    at: startedAt.toISOString(),
    seconds: run.seconds,
    workers,
    store: database
      ? 'PostgreSQL, two instances (each worker answers and decides on the other one)'
      : 'SQLite, one instance',
    machine: {
      cpus: availableParallelism(),
      cpu: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadavg: { before: loadBefore, after: loadavg() },
    },
    kinds,
    total: { ok, errors: run.outcomes.length - ok, perSecond: ok / run.seconds },
    reconciliation,
  };
  const name = database ? 'load-postgres' : 'load';
  const out = join(root, 'test-results/bench');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  const markdown = renderLoad(report);
  writeFileSync(join(out, `${name}.md`), markdown);
  console.log(`\n${markdown}\nWritten to test-results/bench/${name}.{json,md}`);
  if (reconciliation.problems.length > 0) process.exitCode = 1;
} finally {
  await stopAll();
  await store.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
}
