// The per-folder mutation scores, from each target's Stryker JSON report, and every mutant that
// survived in a security check with its disposition (scripts/mutation/equivalents.json: a mutant
// judged equivalent, and why). Written to test-results/mutation/mutation.md and .json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../lib.mjs';
import { SECURITY_CHECKS } from './security-checks.mjs';
import { TARGETS } from './targets.mjs';

const OUT = join(root, 'test-results', 'mutation');
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

export function writeMutationReport() {
  const equivalents = JSON.parse(readFileSync(join(root, 'scripts/mutation/equivalents.json'), 'utf8'));
  const folders = [];
  const securitySurvivors = [];
  for (const target of TARGETS) {
    const file = join(OUT, target.name, 'report.json');
    if (!existsSync(file)) {
      folders.push({ name: target.name, mutate: target.mutate, goal: target.goal, notRun: true });
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const counts = {
      Killed: 0,
      Timeout: 0,
      Survived: 0,
      NoCoverage: 0,
      CompileError: 0,
      RuntimeError: 0,
      Ignored: 0,
    };
    for (const [path, { source, mutants }] of Object.entries(report.files)) {
      const relative = path.startsWith(root) ? path.slice(root.length + 1) : path;
      // Stryker's incremental report keeps the last results of a file the target no longer mutates.
      if (excluded(target, relative)) continue;
      const check = SECURITY_CHECKS.find((candidate) => candidate.files.includes(relative));
      for (const mutant of mutants) {
        counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
        if (!check || !UNDETECTED.has(mutant.status)) continue;
        const original = excerpt(source, mutant.location);
        const equivalent = equivalents.find(
          (entry) =>
            entry.file === relative &&
            entry.mutator === mutant.mutatorName &&
            entry.original === original &&
            entry.replacement === mutant.replacement,
        );
        securitySurvivors.push({
          check: check.name,
          file: relative,
          line: mutant.location.start.line,
          mutator: mutant.mutatorName,
          original,
          replacement: mutant.replacement,
          status: mutant.status,
          disposition: equivalent ? `equivalent: ${equivalent.reason}` : 'unresolved',
        });
      }
    }
    const detected = counts.Killed + counts.Timeout;
    const valid = detected + counts.Survived + counts.NoCoverage;
    const score = valid ? (100 * detected) / valid : 100;
    folders.push({ name: target.name, mutate: target.mutate, goal: target.goal, score, counts });
  }
  writeFileSync(join(OUT, 'mutation.json'), `${JSON.stringify({ folders, securitySurvivors }, null, 2)}\n`);
  writeFileSync(join(OUT, 'mutation.md'), markdown(folders, securitySurvivors));
  console.log(`\nMutation report: ${join(OUT, 'mutation.md')}`);
  return { folders, securitySurvivors };
}

/** Whether one of the target's `!` patterns (an exact file, or a folder ending in `/**`) leaves the file out. */
function excluded(target, file) {
  return target.mutate
    .filter((pattern) => pattern.startsWith('!'))
    .some((pattern) => {
      const glob = pattern.slice(1);
      return glob.endsWith('/**') ? file.startsWith(glob.slice(0, -2)) : file === glob;
    });
}

function excerpt(source, { start, end }) {
  const lines = source.split('\n').slice(start.line - 1, end.line);
  if (lines.length === 1) return lines[0].slice(start.column - 1, end.column - 1);
  lines[0] = lines[0].slice(start.column - 1);
  lines[lines.length - 1] = lines[lines.length - 1].slice(0, end.column - 1);
  return lines.join('\n');
}

function markdown(folders, survivors) {
  // Every glob of the folder, the excluded ones with their `!`.
  const globs = (mutate) => mutate.map((glob) => `\`${glob}\``).join(', ');
  const rows = folders.map(({ name, mutate, goal, score, counts, notRun }) => {
    if (notRun)
      return `| ${name} | ${globs(mutate)} | not run | ${goal === undefined ? 'measured' : `≥ ${goal}%`} | | | | | | |`;
    const verdict = goal === undefined ? 'measured' : score >= goal ? `≥ ${goal}% ✓` : `< ${goal}% ✗`;
    const invalid = counts.CompileError + counts.RuntimeError;
    return `| ${name} | ${globs(mutate)} | ${score.toFixed(1)}% | ${verdict} | ${counts.Killed} | ${counts.Timeout} | ${counts.Survived} | ${counts.NoCoverage} | ${counts.Ignored} | ${invalid} |`;
  });
  const survivorRows = survivors.map(
    (s) =>
      `| ${s.check} | \`${s.file}:${s.line}\` | ${s.mutator} | \`${oneLine(s.original)}\` → \`${oneLine(s.replacement)}\` | ${s.status} | ${s.disposition} |`,
  );
  return [
    '# Mutation testing',
    '',
    'Stryker 9 (`npm run mutation`: vitest runner, per-test coverage, incremental per folder), each folder',
    'against its own tests on SQLite (scripts/mutation/targets.mjs). Score = (killed + timed out) /',
    '(killed + timed out + survived + not covered). Static mutants (module-level data such as the',
    "catalog's schemas) are ignored: each would re-run every test with a fresh module graph; the",
    "catalog's published-contract test (docs/api/catalog.json) pins that data instead.",
    '',
    '| Folder | Mutated | Score | Goal | Killed | Timeout | Survived | No coverage | Ignored (static) | Invalid |',
    '|---|---|---:|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    '## Surviving mutants in security checks',
    '',
    survivors.length
      ? '| Check | Where | Mutator | Change | Status | Disposition |\n|---|---|---|---|---|---|'
      : 'None: every mutant in a security check (Origin, CSRF, grant, selection, receipt binding, trusted-input guard, approval flow) of the folders run was killed.',
    ...survivorRows,
    '',
  ].join('\n');
}

function oneLine(text) {
  const flat = text.replace(/\s+/g, ' ').replaceAll('|', '\\|').replaceAll('`', "'");
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
}
