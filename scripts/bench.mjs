// `npm run bench`: every benchmark, each against its side-by-side baseline in the same run.
// Results are written to test-results/bench/ (`npm run docs:refresh` copies them to bench/results/).
// BENCH_DURATION sets the seconds per measurement (the hub bench scales its round trips and resumed
// sample with it); BENCH_FILE_ROUNDS the sequential uploads of the file benchmark; BENCH_ROUNDS and
// BENCH_TURNS the kit's browser round trips; BENCH_LOAD_SECONDS the mixed load runs (default 60, the
// same as `node --import tsx bench/load/run.ts --seconds N`; once on SQLite, once on two instances
// over PostgreSQL); BENCH_WAITING_TURNS the turns left
// waiting across two instances on PostgreSQL (default 10,000; BENCH_POSTGRES_URL names a server,
// otherwise a throwaway one is started as for npm test); BENCH_CLI_PAIRS the paired starts of the
// `diosc` program, built against through tsx (default 10).
import { must, run } from './lib.mjs';
import { startPostgres } from './postgres.mjs';

must(process.execPath, ['--import', 'tsx', 'bench/mcp/run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/hub/run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/hub/observability-run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/files/run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/kit/run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/load/run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/cli/run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/ag-ui/run.ts']);
// Two instances on one PostgreSQL: the one named, or a throwaway server as npm test starts.
const postgres = process.env.BENCH_POSTGRES_URL ? undefined : await startPostgres();
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? postgres?.url;
let failed;
try {
  for (const args of [['bench/load/waiting-run.ts'], ['bench/load/run.ts', '--postgres', postgresUrl]]) {
    const status = run(process.execPath, ['--import', 'tsx', ...args], {
      env: { ...process.env, BENCH_POSTGRES_URL: postgresUrl },
    });
    if (status !== 0) {
      failed = { script: args[0], status };
      break;
    }
  }
} finally {
  await postgres?.stop();
}
if (failed) {
  console.error(`\n✗ ${failed.script} exited with ${failed.status}`);
  process.exit(failed.status);
}
