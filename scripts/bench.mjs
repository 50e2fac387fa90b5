// `npm run bench`: every benchmark, each against its side-by-side baseline in the same run.
// Results are written to test-results/bench/ (`npm run docs:refresh` copies them to bench/results/).
// BENCH_DURATION sets the seconds per measurement (the hub bench scales its round trips and resumed
// sample with it); BENCH_FILE_ROUNDS the sequential uploads of the file benchmark; BENCH_ROUNDS and
// BENCH_TURNS the kit's browser round trips.
import { must } from './lib.mjs';

must(process.execPath, ['--import', 'tsx', 'bench/mcp/run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/hub/run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/files/run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/kit/run.ts']);
