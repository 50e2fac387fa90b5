// `npm run bench`: every benchmark, each against its side-by-side baseline in the same run.
// Results are written to bench/results/. BENCH_DURATION sets the seconds per /mcp measurement;
// BENCH_ROUNDS and BENCH_TURNS the kit's round trips.
import { must } from './lib.mjs';

must(process.execPath, ['--import', 'tsx', 'bench/mcp/run.ts']);
must(process.execPath, ['--import', 'tsx', 'bench/kit/run.ts']);
