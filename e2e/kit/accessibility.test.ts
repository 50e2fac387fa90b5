import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AxeViolation, axeScan, blocking, writeAxeReport } from '../support/axe.js';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { sequence } from './support/model-calls.js';
import { ask, dialog } from './support/widget.js';

/**
 * axe-core 4 over the kit's widget and its consensus dialog, embedded in the shop page, in English
 * and Spanish: no serious or critical violation, and none of the named rules that apply to an
 * embedded widget (heading order, label-in-name, scrollable regions). Only the kit's own elements
 * are scanned — the host page is the site's, not ours.
 */
const KIT = ['diosc-widget', 'diosc-consensus-dialog'];
const APPLY = { toolName: 'browser_apply_changes', input: { ops: [{ id: '42', price: 2 }] } };
const RENAME = { toolName: 'browser_rename_catalogue', input: { title: 'Spring teas' } };

let e2e: KitE2E;
beforeAll(async () => {
  e2e = await startKitE2E();
});
afterAll(async () => {
  await e2e?.close();
});

for (const locale of ['en', 'es']) {
  describe(`accessibility of the kit's widget and consensus dialog (${locale})`, () => {
    const found: Record<string, AxeViolation[]> = {};
    const scanned: string[] = [];

    async function state(page: Page, name: string): Promise<void> {
      scanned.push(name);
      const violations = blocking(await axeScan(page, KIT), true);
      if (violations.length > 0) found[name] = violations;
    }

    it('the widget, idle and with a conversation', async () => {
      e2e.script = () => ({ text: 'The cheapest tea is **Assam**, at 3.' });
      const { page } = await e2e.open('/shop', { locale });
      await state(page, 'widget (idle)');
      await ask(page, 'Which tea is cheapest?');
      await page.locator('diosc-widget .message.assistant').first().waitFor();
      await state(page, 'widget (conversation)');
      // Long enough that the message list scrolls (axe "scrollable-region-focusable").
      e2e.script = () => ({ text: `A long answer. ${'More detail on the teas. '.repeat(30)}` });
      for (let i = 0; i < 5; i++) {
        await ask(page, `Tell me more (${i})`);
        await page
          .locator('diosc-widget .message.assistant')
          .nth(i + 1)
          .waitFor();
      }
      const list = page.locator('diosc-widget .messages');
      expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
      await state(page, 'widget (long conversation)');
    });

    it('the consensus dialog, reviewing a change and editing one', async () => {
      e2e.script = sequence({ toolCalls: [APPLY] }, { text: 'Applied.' });
      const first = await e2e.open('/shop', { locale });
      await ask(first.page, 'Make Assam cheaper');
      await dialog(first.page).waitFor();
      await state(first.page, 'consensus dialog');
      e2e.script = sequence({ toolCalls: [RENAME] }, { text: 'Renamed.' });
      const second = await e2e.open('/shop', { locale });
      await ask(second.page, 'Rename the catalogue');
      await dialog(second.page).waitFor();
      await second.page
        .locator('diosc-consensus-dialog button', { hasText: locale === 'es' ? 'Editar' : 'Edit' })
        .click();
      await second.page.locator('diosc-consensus-dialog form input').first().waitFor();
      await state(second.page, 'consensus dialog (edit)');
      await second.page
        .locator('diosc-consensus-dialog button', { hasText: locale === 'es' ? 'Volver' : 'Back' })
        .click();
      await second.page.locator('diosc-consensus-dialog button.reject').click();
      await second.page.locator('diosc-consensus-dialog textarea#reason').waitFor();
      await state(second.page, 'consensus dialog (reject)');
    });

    it('has no serious or critical violation and none of the named rules', () => {
      writeAxeReport(`kit-${locale}`, scanned, found, {});
      expect(scanned).toHaveLength(6);
      const lines = Object.entries(found).flatMap(([name, violations]) =>
        violations.map((v) => `${name}: ${v.id} (${v.impact}) ${v.targets.join(' ')}`),
      );
      expect(lines).toEqual([]);
    });
  });
}
