import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Tests write only under test-results/; `npm run docs:refresh` copies the report into docs/. */
const OUT = fileURLToPath(new URL('../../../test-results/', import.meta.url));

export interface NativeCheck {
  check: string;
  result: 'pass' | 'fail';
  detail: string;
}

export interface NativeReport {
  date: string;
  browser: string;
  executable: string;
  flag: string;
  apiPresent: boolean | null;
  checks: NativeCheck[];
}

function render(report: NativeReport): string {
  const passed = report.checks.filter((c) => c.result === 'pass').length;
  const verdict =
    report.apiPresent === false
      ? '**The installed browser lacks the WebMCP API with this flag: native conformance is NOT claimed.**'
      : report.checks.length === 0
        ? '**No native check ran (the browser or the server did not start): nothing is claimed.**'
        : passed === report.checks.length
          ? `All ${passed} native checks passed.`
          : `${passed} of ${report.checks.length} native checks passed — see the failures below.`;
  const rows = report.checks.map(
    (c) =>
      `| ${c.check} | ${c.result === 'pass' ? 'pass' : '**FAIL**'} | ${c.detail.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`,
  );
  return [
    '# Native WebMCP conformance (generated)',
    '',
    'Written by `npx vitest run e2e/webmcp/native.test.ts` into `test-results/` and copied here by `npm run docs:refresh`',
    '— do not edit by hand (data: `native-webmcp.json`).',
    'This reports native browser behaviour only; the adapter logic itself is covered by the DOM unit tests',
    'in `packages/webmcp/test` with an injected fake `ModelContext`.',
    '',
    `- Date: ${report.date}`,
    `- Browser: ${report.browser} (\`${report.executable}\`)`,
    `- Feature flag: \`${report.flag}\``,
    `- \`document.modelContext.registerTool\` present: ${report.apiPresent === null ? 'not reached' : report.apiPresent ? 'yes' : 'no'}`,
    '- Agent side: Chrome DevTools Protocol `WebMCP` domain (`enable`, `invokeTool`, `cancelInvocation`;',
    '  events `toolsAdded`, `toolsRemoved`, `toolResponded`), against the real server on loopback.',
    '',
    verdict,
    '',
    '| check | result | detail |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** Writes `test-results/native-webmcp.json` and the Markdown rendered from it. */
export function writeNativeReport(report: NativeReport): void {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}native-webmcp.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${OUT}native-webmcp.md`, render(report));
}
