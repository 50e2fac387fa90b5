import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { callsReach, lastResult, sequence } from './support/model-calls.js';
import { ask, dialog, recordAnswers, screenshot, tabTo } from './support/widget.js';

let e2e: KitE2E;
const cancelled: unknown[] = [];
beforeAll(async () => {
  e2e = await startKitE2E({
    assistant: { serverTools: { consensus: { cancel_order: 'high' } } },
    hub: {
      extraServerTools: () => [
        {
          name: 'cancel_order',
          description: 'Cancel an order.',
          inputSchema: {
            type: 'object',
            additionalProperties: false,
            required: ['order'],
            properties: { order: { type: 'string' } },
          },
          execute: async (args) => {
            cancelled.push(args);
            return { cancelled: args.order };
          },
        },
      ],
    },
  });
});
afterAll(async () => {
  await e2e?.close();
});

const APPLY = { toolName: 'browser_apply_changes', input: { ops: [{ id: '42', price: 2 }] } };
const RENAME = { toolName: 'browser_rename_catalogue', input: { title: 'Spring teas' } };

describe('the consensus dialog in Debian Chromium', () => {
  it('Approve: the dialog holds the change (badge, summary, before/after) and nothing runs until a real click', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence({ toolCalls: [APPLY] }, { text: 'Applied.' });
    const { page } = await e2e.open();
    const answers = recordAnswers(page);
    await ask(page, 'Make Assam cheaper');
    await dialog(page).waitFor();
    await expect
      .poll(() => dialog(page).locator('h2').textContent())
      .toBe('Apply 1 change(s) to the catalogue');
    expect(await dialog(page).locator('[part="severity-badge"]').textContent()).toBe('Medium impact');
    expect(await dialog(page).locator('tbody tr').allInnerTexts()).toEqual(['price of 42\t3\t2']);
    expect(await page.evaluate(() => window.shop.runs())).toEqual([]);
    await screenshot(dialog(page), 'kit-consensus');
    await page.getByRole('button', { name: 'Approve' }).click();
    const next = await callsReach(calls, base + 2);
    expect(lastResult(next, 'browser_apply_changes')).toEqual({
      type: 'json',
      value: { success: true, data: { applied: 1 } },
    });
    expect(await page.evaluate(() => window.shop.runs())).toEqual([
      { tool: 'apply_changes', args: { ops: [{ id: '42', price: 2 }] } },
    ]);
    // Only the decision travels: no summary, no diff.
    expect(answers).toEqual([
      { result: { success: true, data: { applied: 1 } }, decision: { decision: 'approve' } },
    ]);
    await expect.poll(() => dialog(page).isVisible()).toBe(false);
  });

  it('Edit: a form from the schema, checked before anything runs; the edited values are the arguments', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence({ toolCalls: [RENAME] }, { text: 'Renamed.' });
    const { page } = await e2e.open();
    const answers = recordAnswers(page);
    await ask(page, 'Rename the catalogue');
    await dialog(page).waitFor();
    expect(await dialog(page).locator('[part="severity-badge"]').textContent()).toBe('High impact');
    await page.getByRole('button', { name: 'Edit' }).click();
    const title = page.getByLabel('title *');
    expect(await title.inputValue()).toBe('Spring teas');
    await title.fill('ab');
    await page.getByRole('button', { name: 'Run with these values' }).click();
    await expect
      .poll(() => dialog(page).getByRole('alert').textContent())
      .toBe('Not valid: arguments.title needs at least 3 characters');
    expect(await page.evaluate(() => window.shop.runs())).toEqual([]);
    await title.fill('Summer teas');
    await page.getByLabel('pinned').check();
    await page.getByRole('button', { name: 'Run with these values' }).click();
    const next = await callsReach(calls, base + 2);
    expect(lastResult(next, 'browser_rename_catalogue')).toEqual({
      type: 'json',
      value: { success: true, data: { title: 'Summer teas' } },
    });
    expect(await page.evaluate(() => window.shop.runs())).toEqual([
      { tool: 'rename_catalogue', args: { title: 'Summer teas', pinned: true } },
    ]);
    expect(answers).toEqual([
      {
        result: { success: true, data: { title: 'Summer teas' } },
        decision: { decision: 'edit', changed: ['title', 'pinned'] },
      },
    ]);
  });

  it('Reject: the handler never runs; the model reads "Action declined by user" with the reason', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence({ toolCalls: [APPLY] }, { text: 'Understood.' });
    const { page } = await e2e.open();
    await ask(page, 'Make Assam cheaper');
    await dialog(page).waitFor();
    await page.getByRole('button', { name: 'Reject…' }).click();
    await page.getByLabel('Reason (optional, shared with the assistant)').fill('prices are fixed this week');
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    const next = await callsReach(calls, base + 2);
    expect(lastResult(next, 'browser_apply_changes')).toEqual({
      type: 'json',
      value: { success: false, error: 'Action declined by user: prices are fixed this week' },
    });
    expect(await page.evaluate(() => window.shop.runs())).toEqual([]);
  });

  it('a script cannot approve: click(), requestSubmit() and synthetic events are refused; a real key press decides', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence({ toolCalls: [APPLY] }, { text: 'Applied.' });
    const { page } = await e2e.open();
    await ask(page, 'Make Assam cheaper');
    await dialog(page).waitFor();
    const attempts = await page.evaluate(async () => {
      const root = document
        .querySelector('diosc-widget')!
        .shadowRoot!.querySelector('diosc-consensus-dialog')!.shadowRoot!;
      const button = root.querySelector<HTMLButtonElement>('button[type="submit"]')!;
      const form = button.form!;
      button.click();
      form.requestSubmit(button);
      button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
      button.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      form.dispatchEvent(new SubmitEvent('submit', { submitter: button, bubbles: true, cancelable: true }));
      button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      form.requestSubmit(button);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return {
        open: root.querySelector('dialog')!.open,
        alert: root.querySelector('[role="alert"]')?.textContent,
      };
    });
    expect(attempts).toEqual({
      open: true,
      alert: 'Only a real click, tap or key press on a button can decide.',
    });
    expect(await page.evaluate(() => window.shop.runs())).toEqual([]);
    expect(calls.length).toBe(base + 1);
    // Keyboard: Tab to Approve, Enter.
    await tabTo(page, 'Approve');
    await page.keyboard.press('Enter');
    await callsReach(calls, base + 2);
    expect(await page.evaluate(() => window.shop.runs())).toHaveLength(1);
  });

  it('Escape closes without deciding; Review opens it again', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence({ toolCalls: [APPLY] }, { text: 'Applied.' });
    const { page } = await e2e.open();
    await ask(page, 'Make Assam cheaper');
    await dialog(page).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).isVisible()).toBe(false);
    await expect
      .poll(() => page.locator('diosc-widget .approvals').textContent())
      .toContain('An action is waiting for your decision.');
    expect(calls.length).toBe(base + 1);
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await callsReach(calls, base + 2);
    expect(await page.evaluate(() => window.shop.runs())).toHaveLength(1);
  });

  it('a vanished intent fails fast with the exact message and runs nothing', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    let pageChanged: () => void = () => {};
    const changed = new Promise<void>((resolve) => (pageChanged = resolve));
    e2e.script = sequence(
      async () => {
        await changed;
        return { toolCalls: [APPLY] };
      },
      { text: 'Re-planning.' },
    );
    const { page } = await e2e.open();
    await ask(page, 'Make Assam cheaper');
    await callsReach(calls, base + 1);
    await page.evaluate(() => window.shop.setIntents(false));
    pageChanged();
    const next = await callsReach(calls, base + 2);
    expect(lastResult(next, 'browser_apply_changes')).toEqual({
      type: 'error-text',
      value: 'intent "apply_changes" no longer available — page changed',
    });
    expect(await page.evaluate(() => window.shop.runs())).toEqual([]);
    expect(await dialog(page).isVisible()).toBe(false);
  });

  it('a server tool’s Consensus request is decided in the same dialog, bound to its arguments', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'cancel_order', input: { order: 'A-1001' } }] },
      { text: 'Cancelled.' },
    );
    const { page } = await e2e.open();
    await ask(page, 'Cancel my order');
    await dialog(page).waitFor();
    expect(await dialog(page).locator('h2').textContent()).toBe('Run cancel_order with order = A-1001');
    expect(await dialog(page).locator('.where').textContent()).toContain('Runs on the server');
    expect(cancelled).toEqual([]);
    await page.getByRole('button', { name: 'Approve' }).click();
    const next = await callsReach(calls, base + 2);
    expect(lastResult(next, 'cancel_order')).toEqual({ type: 'json', value: { cancelled: 'A-1001' } });
    expect(cancelled).toEqual([{ order: 'A-1001' }]);
  });
});
