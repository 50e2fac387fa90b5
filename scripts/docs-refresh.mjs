// `npm run docs:refresh`: copies the screenshots the browser tests wrote under test-results/screenshots/
// into docs/screenshots/. Tests never write into docs/ themselves; run `npm test` first.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const from = join(root, 'test-results', 'screenshots');
const to = join(root, 'docs', 'screenshots');
if (!existsSync(from)) {
  console.error('No screenshots in test-results/screenshots/: run `npm test` (or the e2e/kit tests) first.');
  process.exit(1);
}
mkdirSync(to, { recursive: true });
const files = readdirSync(from).filter((name) => name.endsWith('.png'));
for (const name of files) copyFileSync(join(from, name), join(to, name));
console.log(`Copied ${files.length} screenshot(s) to docs/screenshots/: ${files.join(', ')}`);
