// `npm test`: the whole suite, the way CI runs it. Installs what the tests need, then runs
// type-check, lint, unit + integration tests (SQLite and PostgreSQL), and the browser suite. Under
// CI=true nothing may be missing: no PostgreSQL or no Chromium fails the run before a test starts,
// and a report without PostgreSQL or browser tests fails it at the end (test-summary.mjs).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildableWorkspaces, mustBeBuilt } from './builds.mjs';
import {
  banner,
  chromiumVersion,
  ensureChromium,
  ensureDependencies,
  isCi,
  must,
  root,
  run,
  treeState,
} from './lib.mjs';
import { preparePostgres, startPostgres } from './postgres.mjs';
import { coverageProblems, formatSummary, summarize } from './test-summary.mjs';

// Tests write only under test-results/ (gitignored); the docs' copies are `npm run docs:refresh`.
// The tree's state before the run (installs included: they must not touch it either) is compared
// with the state after it.
const treeBefore = treeState();
ensureDependencies();
// The official MCP conformance suite needs Node 22: the `node` npm package's binary, kept in its own
// folder (e2e/mcp/conformance.test.ts runs it against /mcp).
ensureDependencies('tools/mcp-conformance');
ensureChromium();
// Before the long steps, so a run that cannot have PostgreSQL fails (CI) or says so (banner) first.
const withPostgres = preparePostgres();
// Every project under its own runtime (tsconfig.json references them all): browser packages without
// Node types, the server without the DOM, protocol with neither; tests too.
must('npx', ['tsc', '-b']);
must('npx', ['biome', 'check', '.']);
// Every workspace's build that is stale, the server's bin included: the CLI and start tests run it.
mustBeBuilt(buildableWorkspaces(), { log: console.log });

const postgres = withPostgres ? await startPostgres() : undefined;
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
  const summary = summarize(report, root);
  console.log(`\n${formatSummary(summary, chromiumVersion())}`);
  const problems = coverageProblems(summary, { postgresStarted: Boolean(postgres) });
  for (const problem of problems) {
    if (isCi()) console.error(`✗ ${problem} (refused under CI)`);
    else banner(`${problem}: this run proves less than a CI run.`);
  }
  if (isCi() && problems.length) status ||= 1;
} catch (error) {
  console.log(`\nno test report was written (${error.message})`);
  status ||= 1;
}
const treeAfter = treeState();
if (treeBefore !== treeAfter) {
  console.error('\n✗ The test run changed tracked files (tests must write only under test-results/):');
  run('git', ['status', '--short']);
  status ||= 1;
}
process.exit(status);
