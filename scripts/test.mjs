// `npm test`: the whole suite, the way CI runs it. Installs what the tests need, then runs
// type-check, lint, unit + integration tests (SQLite and PostgreSQL), and the browser suite.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureChromium, ensureDependencies, must, root, run } from './lib.mjs';
import { startPostgres } from './postgres.mjs';

ensureDependencies();
ensureChromium();
// Every project under its own runtime (tsconfig.json references them all): browser packages without
// Node types, the server without the DOM, protocol with neither; tests too.
must('npx', ['tsc', '-b']);
must('npx', ['biome', 'check', '.']);
must('npm', ['run', 'build', '--if-present', '--workspaces']);

const postgres = await startPostgres();
const report = join(root, 'test-results', 'vitest.json');
rmSync(report, { force: true });
let status;
try {
  status = run(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    {
      env: { ...process.env, ...(postgres ? { DIOSC_TEST_POSTGRES_URL: postgres.url } : {}) },
    },
  );
} finally {
  await postgres?.stop();
}
try {
  const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(report, 'utf8'));
  console.log(`\ntests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped`);
} catch {
  console.log('\nno test report was written');
  status ||= 1;
}
process.exit(status);
