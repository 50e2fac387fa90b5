// The tests of one mutation target (DIOSC_MUTATION_TESTS, comma-separated globs), on SQLite only:
// a mutant is killed or not by what the code does, not by which store runs it.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: (process.env.DIOSC_MUTATION_TESTS ?? '').split(',').filter(Boolean),
    // size-budget bundles the kit's source files, which Stryker has instrumented in place: it would
    // measure the instrumented bundle, and it runs none of that code, so it can kill no mutant.
    exclude: ['**/node_modules/**', '**/crash.test.ts', '**/size-budget.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
