// The tests of one mutation target (DIOSC_MUTATION_TESTS, comma-separated globs), on SQLite only:
// a mutant is killed or not by what the code does, not by which store runs it.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: (process.env.DIOSC_MUTATION_TESTS ?? '').split(',').filter(Boolean),
    // size-budget bundles the kit's source files and catalogues scans their text for message keys;
    // Stryker has instrumented those files in place, so both would read the instrumented text.
    // Neither runs the code it reads, so neither could kill a mutant of it.
    exclude: ['**/node_modules/**', '**/crash.test.ts', '**/size-budget.test.ts', '**/catalogues.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
