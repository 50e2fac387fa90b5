// Stryker for one target of scripts/mutation/targets.mjs, named by DIOSC_MUTATION_TARGET
// (`npm run mutation` sets it). In place, because the workspaces resolve @diosc/* to the source
// folders: a sandbox copy would leave those imports pointing at the unmutated originals.
import { targetNamed } from './scripts/mutation/targets.mjs';

const target = targetNamed(process.env.DIOSC_MUTATION_TARGET ?? 'catalog');
const out = `test-results/mutation/${target.name}`;

export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'scripts/mutation/vitest.config.mjs', related: false },
  mutate: target.mutate,
  inPlace: true,
  // Vitest does not type-check; leave the files' own headers alone.
  disableTypeChecks: false,
  coverageAnalysis: 'perTest',
  // A static mutant (module-level data: the catalog's schemas and descriptions) re-runs every test
  // with a fresh module graph; on two cores that is hours. They are reported as ignored; the
  // catalog's published-contract test is what pins that data.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `${out}/incremental.json`,
  reporters: ['json', 'clear-text', 'progress'],
  jsonReporter: { fileName: `${out}/report.json` },
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  concurrency: Number(process.env.DIOSC_MUTATION_CONCURRENCY ?? 1),
  timeoutMS: 20_000,
  tempDirName: 'test-results/mutation/.stryker-tmp',
  cleanTempDir: 'always',
  thresholds: { high: 85, low: 70, break: null },
};
