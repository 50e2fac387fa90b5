import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { sequence } from './support/model-calls.js';
import { ask, dialog } from './support/widget.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe (WCAG 2.x A/AA) over the kit's own elements only — the host page is the test's, not ours. */
async function scanKit(page: Page): Promise<{ id: string; impact: string | null; help: string }[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: unknown,
            options: unknown,
          ): Promise<{ violations: { id: string; impact: string | null; help: string }[] }>;
        };
      }
    ).axe;
    const include = ['diosc-widget', 'diosc-consensus-dialog']
      .filter((tag) => document.querySelector(tag))
      .map((tag) => [tag]);
    const result = await axe.run(
      { include },
      {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
        resultTypes: ['violations'],
      },
    );
    return result.violations.map(({ id, impact, help }) => ({ id, impact, help }));
  });
}

const serious = (violations: { impact: string | null }[]) =>
  violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');

let e2e: KitE2E;
beforeAll(async () => {
  e2e = await startKitE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('the kit’s widget and consensus dialog under axe-core', () => {
  it('has no serious or critical violation in the open widget and in an open approval dialog', async () => {
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'browser_apply_changes', input: { ops: [{ id: '42', price: 2 }] } }] },
      { text: 'Applied.' },
    );
    const { page } = await e2e.open();
    await ask(page, 'Make Assam cheaper');
    await dialog(page).waitFor();
    const violations = await scanKit(page);
    expect(serious(violations)).toEqual([]);
    // The scan really ran over the kit: it found the dialog's controls to check.
    expect(await page.locator('diosc-consensus-dialog').count()).toBe(1);
  });
});
