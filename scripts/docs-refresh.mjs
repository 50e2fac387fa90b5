// `npm run docs:refresh`: copies what the test runs and the benchmark produced under test-results/
// into the tracked docs. Tests never write tracked files (a clean checkout stays clean after
// `npm test`); updating the docs is this separate, deliberate step. Run `npm test` (and
// `npm run bench` for the benchmark) first. Another suite that makes a doc artifact adds a line.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { root } from './lib.mjs';

/** [written by a run under test-results/, copied to this tracked path, made by]. */
export const ARTIFACTS = [
  ['screenshots/automation-hub.png', 'docs/screenshots/automation-hub.png', 'e2e/portal'],
  ['screenshots/connected-apps.png', 'docs/screenshots/connected-apps.png', 'e2e/portal'],
  ['screenshots/review-dialog.png', 'docs/screenshots/review-dialog.png', 'e2e/portal'],
  ['screenshots/assistants-list.png', 'docs/screenshots/assistants-list.png', 'e2e/portal'],
  ['screenshots/assistant-settings.png', 'docs/screenshots/assistant-settings.png', 'e2e/portal'],
  ['screenshots/assistant-tools.png', 'docs/screenshots/assistant-tools.png', 'e2e/portal'],
  ['screenshots/assistant-sitemap.png', 'docs/screenshots/assistant-sitemap.png', 'e2e/portal'],
  ['screenshots/assistant-embed.png', 'docs/screenshots/assistant-embed.png', 'e2e/portal'],
  ['screenshots/assistant-transcript.png', 'docs/screenshots/assistant-transcript.png', 'e2e/portal'],
  ['screenshots/assistant-usage.png', 'docs/screenshots/assistant-usage.png', 'e2e/portal'],
  ['screenshots/kit-widget.png', 'docs/screenshots/kit-widget.png', 'e2e/kit'],
  ['screenshots/kit-consensus.png', 'docs/screenshots/kit-consensus.png', 'e2e/kit'],
  ['screenshots/northwind-cheapest-tea.png', 'docs/screenshots/northwind-cheapest-tea.png', 'e2e/examples'],
  ['screenshots/northwind-add-to-cart.png', 'docs/screenshots/northwind-add-to-cart.png', 'e2e/examples'],
  ['screenshots/northwind-refused-path.png', 'docs/screenshots/northwind-refused-path.png', 'e2e/examples'],
  [
    'screenshots/northwind-order-confirmation.png',
    'docs/screenshots/northwind-order-confirmation.png',
    'e2e/examples',
  ],
  ['screenshots/plynth-editor.png', 'docs/screenshots/plynth-editor.png', 'e2e/examples'],
  ['screenshots/plynth-approval.png', 'docs/screenshots/plynth-approval.png', 'e2e/examples'],
  ['screenshots/plynth-approved.png', 'docs/screenshots/plynth-approved.png', 'e2e/examples'],
  ['screenshots/plynth-delete-review.png', 'docs/screenshots/plynth-delete-review.png', 'e2e/examples'],
  ['screenshots/plynth-png-chip.png', 'docs/screenshots/plynth-png-chip.png', 'e2e/examples'],
  ['native-webmcp.json', 'docs/native-webmcp.json', 'e2e/webmcp/native.test.ts'],
  ['native-webmcp.md', 'docs/native-webmcp.md', 'e2e/webmcp/native.test.ts'],
  ['bench/mcp.json', 'bench/results/mcp.json', 'npm run bench'],
  ['bench/mcp.md', 'bench/results/mcp.md', 'npm run bench'],
  ['bench/hub.json', 'bench/results/hub.json', 'npm run bench'],
  ['bench/hub.md', 'bench/results/hub.md', 'npm run bench'],
  ['bench/hub-observability.json', 'bench/results/hub-observability.json', 'npm run bench'],
  ['bench/hub-observability.md', 'bench/results/hub-observability.md', 'npm run bench'],
  ['bench/files.json', 'bench/results/files.json', 'npm run bench'],
  ['bench/files.md', 'bench/results/files.md', 'npm run bench'],
  ['bench/kit.json', 'bench/results/kit.json', 'npm run bench'],
  ['bench/kit.md', 'bench/results/kit.md', 'npm run bench'],
  ['bench/load.json', 'bench/results/load.json', 'npm run bench'],
  ['bench/load.md', 'bench/results/load.md', 'npm run bench'],
  ['bench/load-postgres.json', 'bench/results/load-postgres.json', 'npm run bench'],
  ['bench/load-postgres.md', 'bench/results/load-postgres.md', 'npm run bench'],
  ['bench/waiting.json', 'bench/results/waiting.json', 'npm run bench'],
  ['bench/waiting.md', 'bench/results/waiting.md', 'npm run bench'],
  ['bench/cli.json', 'bench/results/cli.json', 'npm run bench'],
  ['bench/cli.md', 'bench/results/cli.md', 'npm run bench'],
  ['bench/ag-ui.json', 'bench/results/ag-ui.json', 'npm run bench'],
  ['bench/ag-ui.md', 'bench/results/ag-ui.md', 'npm run bench'],
  ['mutation/mutation.md', 'bench/results/mutation.md', 'npm run mutation'],
  ['mutation/mutation.json', 'bench/results/mutation.json', 'npm run mutation'],
  ['catalog.json', 'docs/api/catalog.json', 'packages/protocol/test/catalog-contract.test.ts'],
];

let copied = 0;
for (const [from, to, madeBy] of ARTIFACTS) {
  const source = join(root, 'test-results', from);
  if (!existsSync(source)) {
    console.log(`  skipped ${to}: test-results/${from} is missing (made by ${madeBy})`);
    continue;
  }
  mkdirSync(dirname(join(root, to)), { recursive: true });
  copyFileSync(source, join(root, to));
  console.log(`  copied  test-results/${from} → ${to}`);
  copied++;
}
console.log(`${copied} of ${ARTIFACTS.length} doc artifacts refreshed.`);
process.exit(copied === 0 ? 1 : 0);
