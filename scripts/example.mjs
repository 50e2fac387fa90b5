// `npm run example -- northwind|plynth`: builds the example, then runs it beside its own hub.
import { ensureDependencies, must } from './lib.mjs';

const NAMES = ['northwind', 'plynth'];
const name = process.argv[2];
if (!NAMES.includes(name)) {
  console.error(`Usage: npm run example -- ${NAMES.join('|')}`);
  process.exit(2);
}
ensureDependencies();
// The whole build, as `npm start` does: the hub serves its portal and kit beside the example.
must('npm', ['run', 'build', '--if-present', '--workspaces']);
must('node', ['--import', 'tsx', 'scripts/examples/run-example.ts', name], { stdio: 'inherit' });
