// `npm run docs:refresh`: copies the screenshots the last browser run wrote (test-results/screenshots/)
// into docs/screenshots/. `npm test` never rewrites tracked files; this is the one step that does,
// run on purpose when the pictures in the docs should change.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const from = join(root, 'test-results', 'screenshots');
const to = join(root, 'docs', 'screenshots');
const pictures = existsSync(from) ? readdirSync(from).filter((name) => name.endsWith('.png')) : [];
if (pictures.length === 0) {
  console.error('No screenshots in test-results/screenshots/: run the browser tests first (npm test).');
  process.exit(1);
}
mkdirSync(to, { recursive: true });
for (const name of pictures.sort()) {
  copyFileSync(join(from, name), join(to, name));
  console.log(`docs/screenshots/${name}`);
}
