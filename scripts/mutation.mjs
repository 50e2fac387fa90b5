// `npm run mutation [target…]`: Stryker over each target folder (scripts/mutation/targets.mjs), one at
// a time, then the per-folder report (test-results/mutation/mutation.md; `npm run docs:refresh`
// copies it to bench/results/). Not part of `npm test`: it runs each folder's tests once per mutant.

import { run } from './lib.mjs';
import { writeMutationReport } from './mutation/report.mjs';
import { TARGETS, targetNamed } from './mutation/targets.mjs';

const names = process.argv.slice(2);
const targets = names.length ? names.map(targetNamed) : TARGETS;
let status = 0;
for (const target of targets) {
  console.log(`\n› Mutation testing ${target.name} (${target.mutate.join(', ')})`);
  const env = {
    ...process.env,
    DIOSC_MUTATION_TARGET: target.name,
    DIOSC_MUTATION_TESTS: target.tests.join(','),
  };
  delete env.DIOSC_TEST_POSTGRES_URL;
  status ||= run('npx', ['stryker', 'run', 'stryker.config.mjs'], { env });
}
writeMutationReport();
process.exit(status);
