// The per-folder and per-file mutation scores, from each target's Stryker JSON report, and every
// mutant that survived in a security check with its disposition (scripts/mutation/equivalents.json:
// a mutant judged equivalent, and why, or one the browser suite kills — `killedBy`, for a check
// only a trusted event reaches, which the unit suite Stryker runs cannot make). Written to
// test-results/mutation/mutation.md and .json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../lib.mjs';
import { SECURITY_CHECKS } from './security-checks.mjs';
import { TARGETS } from './targets.mjs';

const OUT = join(root, 'test-results', 'mutation');
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** What equivalents.json says of a survivor: equivalent (why), killed by a browser test, or nothing yet. */
function dispositionOf(entries, survivor) {
  const entry = entries.find(
    (each) =>
      each.file === survivor.file &&
      each.mutator === survivor.mutator &&
      each.original === survivor.original &&
      each.replacement === survivor.replacement,
  );
  if (!entry) return 'unresolved';
  return entry.killedBy ? `killed in the browser suite: ${entry.killedBy}` : `equivalent: ${entry.reason}`;
}

export function writeMutationReport() {
  const equivalents = JSON.parse(readFileSync(join(root, 'scripts/mutation/equivalents.json'), 'utf8'));
  const publishedFile = join(root, 'bench/results/mutation.json');
  const published = existsSync(publishedFile) ? JSON.parse(readFileSync(publishedFile, 'utf8')) : undefined;
  const folders = [];
  const files = [];
  const securitySurvivors = [];
  for (const target of TARGETS) {
    const file = join(OUT, target.name, 'report.json');
    if (!existsSync(file)) {
      // Not run here: the published report's row, marked as carried, so one folder can be re-run
      // without losing the others' figures (the code each measured is named by its globs).
      const earlier = published?.folders.find((folder) => folder.name === target.name && !folder.notRun);
      if (earlier) {
        folders.push({ ...earlier, mutate: target.mutate, goal: target.goal, carried: true });
        // A disposition written since that run applies to the same mutant.
        securitySurvivors.push(
          ...published.securitySurvivors
            .filter((each) => mutatedBy(target, each.file))
            .map((each) => ({ ...each, disposition: dispositionOf(equivalents, each) })),
        );
      } else folders.push({ name: target.name, mutate: target.mutate, goal: target.goal, notRun: true });
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const counts = emptyCounts();
    for (const [path, { source, mutants }] of Object.entries(report.files)) {
      const relative = path.startsWith(root) ? path.slice(root.length + 1) : path;
      // Stryker's incremental report keeps the last results of a file the target no longer mutates.
      if (excluded(target, relative)) continue;
      const check = SECURITY_CHECKS.find((candidate) => candidate.files.includes(relative));
      const fileCounts = emptyCounts();
      for (const mutant of mutants) {
        counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
        fileCounts[mutant.status] = (fileCounts[mutant.status] ?? 0) + 1;
        if (!check || !UNDETECTED.has(mutant.status)) continue;
        const original = excerpt(source, mutant.location);
        const survivor = {
          check: check.name,
          file: relative,
          line: mutant.location.start.line,
          mutator: mutant.mutatorName,
          original,
          replacement: mutant.replacement,
          status: mutant.status,
        };
        securitySurvivors.push({ ...survivor, disposition: dispositionOf(equivalents, survivor) });
      }
      files.push({ target: target.name, file: relative, score: scoreOf(fileCounts), counts: fileCounts });
    }
    folders.push({
      name: target.name,
      mutate: target.mutate,
      goal: target.goal,
      score: scoreOf(counts),
      counts,
    });
  }
  files.sort((a, b) => a.target.localeCompare(b.target) || a.file.localeCompare(b.file));
  writeFileSync(
    join(OUT, 'mutation.json'),
    `${JSON.stringify({ folders, files, securitySurvivors }, null, 2)}\n`,
  );
  writeFileSync(join(OUT, 'mutation.md'), markdown(folders, files, securitySurvivors));
  console.log(`\nMutation report: ${join(OUT, 'mutation.md')}`);
  return { folders, files, securitySurvivors };
}

function emptyCounts() {
  return { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, CompileError: 0, RuntimeError: 0, Ignored: 0 };
}

/** (killed + timed out) / (killed + timed out + survived + not covered); 100 when nothing counts. */
function scoreOf(counts) {
  const detected = counts.Killed + counts.Timeout;
  const valid = detected + counts.Survived + counts.NoCoverage;
  return valid ? (100 * detected) / valid : 100;
}

/** Whether the target mutates `file`: under one of its folders (`…/**` globs) or named exactly. */
function mutatedBy(target, file) {
  if (excluded(target, file)) return false;
  return target.mutate
    .filter((pattern) => !pattern.startsWith('!'))
    .some((pattern) =>
      pattern.includes('/**')
        ? file.startsWith(pattern.slice(0, pattern.indexOf('/**') + 1))
        : file === pattern,
    );
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

function markdown(folders, files, survivors) {
  // Every glob of the folder, the excluded ones with their `!`.
  const globs = (mutate) => mutate.map((glob) => `\`${glob}\``).join(', ');
  const rows = folders.map(({ name, mutate, goal, score, counts, notRun, carried }) => {
    if (notRun)
      return `| ${name} | ${globs(mutate)} | not run | ${goal === undefined ? 'measured' : `≥ ${goal}%`} | | | | | | |`;
    const verdict = goal === undefined ? 'measured' : score >= goal ? `≥ ${goal}% ✓` : `< ${goal}% ✗`;
    const invalid = counts.CompileError + counts.RuntimeError;
    return `| ${name}${carried ? ' (earlier run)' : ''} | ${globs(mutate)} | ${score.toFixed(1)}% | ${verdict} | ${counts.Killed} | ${counts.Timeout} | ${counts.Survived} | ${counts.NoCoverage} | ${counts.Ignored} | ${invalid} |`;
  });
  // A file whose every mutant is static (ignored) has no score to show.
  const fileRows = files.map(({ target, file, score, counts }) => {
    const valid = counts.Killed + counts.Timeout + counts.Survived + counts.NoCoverage;
    const shown = valid ? `${score.toFixed(1)}%` : 'n/a';
    return `| ${target} | \`${file}\` | ${shown} | ${counts.Killed} | ${counts.Timeout} | ${counts.Survived} | ${counts.NoCoverage} |`;
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
    "catalog's published-contract test (docs/api/catalog.json) pins that data instead. A folder marked",
    '(earlier run) was not run for this report: its row and its security survivors are carried from',
    'the report before it.',
    '',
    '| Folder | Mutated | Score | Goal | Killed | Timeout | Survived | No coverage | Ignored (static) | Invalid |',
    '|---|---|---:|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    '## Per file',
    '',
    'Every mutated file of the folders run, with the same score; a file with no scored mutant (only',
    'static ones) shows n/a.',
    '',
    '| Folder | File | Score | Killed | Timeout | Survived | No coverage |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...fileRows,
    '',
    '## Surviving mutants in security checks',
    '',
    survivors.length
      ? '| Check | Where | Mutator | Change | Status | Disposition |\n|---|---|---|---|---|---|'
      : `None: every mutant in a security check (${SECURITY_CHECKS.map((check) => check.name).join(', ')}) of the folders run was killed.`,
    ...survivorRows,
    '',
  ].join('\n');
}

function oneLine(text) {
  const flat = text.replace(/\s+/g, ' ').replaceAll('|', '\\|').replaceAll('`', "'");
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
}
