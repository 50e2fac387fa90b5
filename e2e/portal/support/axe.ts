import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** axe-core 4 (pinned in package.json), injected into the page under test as its source text. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  targets: string[];
}

/**
 * Rules held to zero at any impact, on top of "nothing serious or critical": the ones the issue
 * named (heading order, landmarks, a name that contains the visible label) — axe files them as
 * moderate or as experimental, so they would otherwise pass unseen.
 */
export const STRICT_RULES = [
  'heading-order',
  'region',
  'landmark-one-main',
  'landmark-unique',
  'landmark-no-duplicate-main',
  'label-content-name-mismatch',
  'page-has-heading-one',
  'scrollable-region-focusable',
];

/**
 * Runs axe over the whole page — open shadow roots and open modal dialogs included — for WCAG 2.x
 * A/AA and best practices. Evaluated through DevTools, so the page's strict CSP and Trusted Types
 * stay on: nothing about the page under test is loosened for the scan.
 */
export async function axeScan(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (strict) => {
    const axe = (window as unknown as { axe: AxeLike }).axe;
    const result = await axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
      rules: Object.fromEntries(strict.map((id) => [id, { enabled: true }])),
      resultTypes: ['violations'],
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => JSON.stringify(node.target)).slice(0, 5),
    }));

    interface AxeLike {
      run(
        context: Document,
        options: unknown,
      ): Promise<{
        violations: {
          id: string;
          impact: AxeViolation['impact'];
          help: string;
          nodes: { target: unknown }[];
        }[];
      }>;
    }
  }, STRICT_RULES);
}

/** The violations a state may not have: serious or critical ones, and any of `STRICT_RULES`. */
export function blocking(violations: AxeViolation[]): AxeViolation[] {
  return violations.filter(
    (violation) =>
      violation.impact === 'serious' ||
      violation.impact === 'critical' ||
      STRICT_RULES.includes(violation.id),
  );
}

const REPORTS = resolve(fileURLToPath(new URL('../../../test-results/accessibility', import.meta.url)));

/** What was scanned and what was found, for the record: test-results/accessibility/<locale>.json. */
export function writeAxeReport(
  locale: string,
  states: string[],
  found: Record<string, AxeViolation[]>,
  overflow: Record<string, number>,
): void {
  mkdirSync(REPORTS, { recursive: true });
  const report = { axe: require('axe-core/package.json').version as string, locale, states, found, overflow };
  writeFileSync(join(REPORTS, `${locale}.json`), `${JSON.stringify(report, null, 2)}\n`);
}
