// The closing summary of `npm test`: what ran, not only how much. Counts the tests of the vitest JSON
// report per store dialect (every dialect suite carries `(sqlite)` or `(postgres)` in its name:
// `describe.each(DIALECTS)('… ($name)')`) and per browser (the e2e/ files run in Chromium), so a run
// that lost PostgreSQL or the browser says so instead of printing a smaller "passed" count.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const DIALECT = /\('?(sqlite|postgres)'?\)/;

/** `{ passed, failed, skipped, dialects: { sqlite, postgres }, chromium }` from the JSON report. */
export function summarize(reportPath, root) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  const dialects = { sqlite: 0, postgres: 0 };
  // Each dialect test by its name with the dialect taken out: which dialects it ran on.
  const twins = new Map();
  let chromium = 0;
  for (const file of report.testResults ?? []) {
    const inBrowser = relative(root, file.name).startsWith('e2e/');
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'passed' && test.status !== 'failed') continue;
      const dialect = DIALECT.exec(test.fullName ?? '')?.[1];
      if (dialect) {
        dialects[dialect] += 1;
        const key = `${file.name} ${test.fullName.replace(DIALECT, '(dialect)')}`;
        twins.set(key, new Set([...(twins.get(key) ?? []), dialect]));
      }
      if (inBrowser) chromium += 1;
    }
  }
  const ran = [...twins.values()];
  return {
    // A test that ran on SQLite without its PostgreSQL twin lost a dialect; PostgreSQL-only suites
    // (several instances on one database) have no SQLite twin by nature.
    sqliteOnly: ran.filter((on) => on.has('sqlite') && !on.has('postgres')).length,
    postgresOnly: ran.filter((on) => on.has('postgres') && !on.has('sqlite')).length,
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + (report.numTodoTests ?? 0),
    dialects,
    chromium,
  };
}

/**
 * What a run must have covered: PostgreSQL for every dialect test that ran on SQLite, and the
 * browser. The returned lines are problems; under CI each one fails the run.
 */
export function coverageProblems(summary, { postgresStarted }) {
  const problems = [];
  const { postgres } = summary.dialects;
  if (!postgresStarted || postgres === 0) problems.push('no test ran on PostgreSQL');
  else if (summary.sqliteOnly > 0) {
    problems.push(`${summary.sqliteOnly} dialect tests ran on SQLite without their PostgreSQL twin`);
  }
  if (summary.chromium === 0) problems.push('no browser test ran in Chromium');
  return problems;
}

/** Three lines: the counts, the tests per dialect, the browser tests (`browser`: its name and version). */
export function formatSummary(summary, browser) {
  const { sqlite, postgres } = summary.dialects;
  return [
    `tests: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`,
    `dialects: SQLite ${sqlite} tests, PostgreSQL ${postgres === 0 ? 'did not run' : `${postgres} tests (${summary.postgresOnly} of them PostgreSQL-only)`}`,
    `browsers: ${browser}: ${summary.chromium === 0 ? 'did not run' : `${summary.chromium} tests`}`,
  ].join('\n');
}
