// `npm run example -- northwind|plynth`: builds the example, then runs it beside its own hub.
import { mustBeBuilt } from './builds.mjs';
import { ensureDependencies, must } from './lib.mjs';

const NAMES = ['northwind', 'plynth'];
const name = process.argv[2];
if (!NAMES.includes(name)) {
  console.error(`Usage: npm run example -- ${NAMES.join('|')}`);
  process.exit(2);
}
ensureDependencies();
// What is stale of the kit and the portal (the hub serves them beside the example) and the example.
// The hub itself runs from source here (run-example.ts imports @diosc/server), not from its build.
mustBeBuilt(['@diosc/kit', '@diosc/portal', `@diosc/example-${name}`], { log: console.log });
must('node', ['--import', 'tsx', 'scripts/examples/run-example.ts', name], { stdio: 'inherit' });
