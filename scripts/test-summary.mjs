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
  let chromium = 0;
  for (const file of report.testResults ?? []) {
    const inBrowser = relative(root, file.name).startsWith('e2e/');
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'passed' && test.status !== 'failed') continue;
      const dialect = DIALECT.exec(test.fullName ?? '')?.[1];
      if (dialect) dialects[dialect] += 1;
      if (inBrowser) chromium += 1;
    }
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + (report.numTodoTests ?? 0),
    dialects,
    chromium,
  };
}

/**
 * What a run must have covered: both dialects, equally (no dialect suite registers tests on one
 * only), and the browser. The returned lines are problems; under CI each one fails the run.
 */
export function coverageProblems(summary, { postgresStarted }) {
  const problems = [];
  const { sqlite, postgres } = summary.dialects;
  if (!postgresStarted || postgres === 0) problems.push('no test ran on PostgreSQL');
  else if (postgres !== sqlite) {
    problems.push(`the dialects ran unequally: ${sqlite} on SQLite, ${postgres} on PostgreSQL`);
  }
  if (summary.chromium === 0) problems.push('no browser test ran in Chromium');
  return problems;
}

/** Three lines: the counts, the tests per dialect, the browser tests (`browser`: its name and version). */
export function formatSummary(summary, browser) {
  const { sqlite, postgres } = summary.dialects;
  return [
    `tests: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`,
    `dialects: SQLite ${sqlite} tests, PostgreSQL ${postgres === 0 ? 'did not run' : `${postgres} tests`}`,
    `browsers: ${browser}: ${summary.chromium === 0 ? 'did not run' : `${summary.chromium} tests`}`,
  ].join('\n');
}
