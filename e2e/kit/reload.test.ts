import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { callsReach, lastResult, sequence } from './support/model-calls.js';
import { ask, dialog } from './support/widget.js';

let e2e: KitE2E;
beforeAll(async () => {
  e2e = await startKitE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const UNCERTAIN = (tool: string) =>
  `The page was reloaded or closed while "${tool}" was running, so whether it finished is unknown; it was not run again.`;

describe('reload and a dropped connection, in Debian Chromium against the real hub', () => {
  it('an approval open at a reload opens again after it (recomputed), and runs once when approved', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'browser_apply_changes', input: { ops: [{ id: '43', price: 8 }] } }] },
      { text: 'Applied.' },
    );
    const { page } = await e2e.open();
    await ask(page, 'Make Oolong cheaper');
    await dialog(page).waitFor();
    await page.reload();
    await dialog(page).waitFor();
    expect(await dialog(page).locator('h2').textContent()).toBe('Apply 1 change(s) to the catalogue');
    expect(await dialog(page).locator('tbody tr').allInnerTexts()).toEqual(['price of 43\t9\t8']);
    await page.getByRole('button', { name: 'Approve' }).click();
    const next = await callsReach(calls, base + 2);
    expect(lastResult(next, 'browser_apply_changes')).toEqual({
      type: 'json',
      value: { success: true, data: { applied: 1 } },
    });
    expect(await page.evaluate(() => window.shop.runs())).toEqual([
      { tool: 'apply_changes', args: { ops: [{ id: '43', price: 8 }] } },
    ]);
  });

  it('a raw tool running at a reload is not run again: the model reads an honest uncertain error', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'slow_export', input: { month: 5 } }] },
      { text: 'I could not tell.' },
    );
    const { page } = await e2e.open();
    await ask(page, 'Export May');
    await expect.poll(() => page.evaluate(() => window.shop.runs().length)).toBe(1);
    await page.reload();
    const next = await callsReach(calls, base + 2);
    expect(lastResult(next, 'slow_export')).toEqual({ type: 'error-text', value: UNCERTAIN('slow_export') });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.shop.runs())).toEqual([
      { tool: 'slow_export', args: { month: 5 } },
    ]);
  });

  it('an approved intent whose handler was running at a reload is neither asked again nor run again', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'browser_slow_publish', input: {} }] },
      { text: 'Unclear.' },
    );
    const { page } = await e2e.open();
    await ask(page, 'Publish');
    await dialog(page).waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.evaluate(() => window.shop.runs().length)).toBe(1);
    await page.reload();
    const next = await callsReach(calls, base + 2);
    expect(lastResult(next, 'browser_slow_publish')).toEqual({
      type: 'error-text',
      value: UNCERTAIN('slow_publish'),
    });
    expect(await dialog(page).isVisible()).toBe(false);
    expect(await page.evaluate(() => window.shop.runs())).toHaveLength(1);
  });

  it('after a dropped connection the stream resumes with Last-Event-ID: an interrupt emitted meanwhile still runs, once', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    let dropped: () => void = () => {};
    const gate = new Promise<void>((resolve) => (dropped = resolve));
    // A first interrupt the page runs proves the stream has delivered events (so the kit holds an
    // id to resume from) before the cut; the second is emitted while the stream is down.
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'highlight_row', input: { id: '40' } }] },
      async () => {
        await gate;
        return {
          text: 'While you were away: ',
          toolCalls: [{ toolName: 'highlight_row', input: { id: '41' } }],
        };
      },
      { text: 'Row 41 is highlighted.' },
    );
    const { page } = await e2e.open();
    const resumes: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/events')) resumes.push(request.headers()['last-event-id']);
    });
    await ask(page, 'Highlight Sencha');
    await expect.poll(() => page.evaluate(() => window.shop.runs().length)).toBe(1);
    await callsReach(calls, base + 2);
    const before = resumes.length;
    expect(e2e.dropEventStreams()).toBeGreaterThanOrEqual(1);
    dropped();
    const next = await callsReach(calls, base + 3);
    expect(lastResult(next, 'highlight_row')).toEqual({ type: 'json', value: { highlighted: '41' } });
    await expect
      .poll(() => page.locator('diosc-widget .message.assistant').last().textContent())
      .toContain('Row 41 is highlighted.');
    expect(await page.evaluate(() => window.shop.runs())).toEqual([
      { tool: 'highlight_row', args: { id: '40' } },
      { tool: 'highlight_row', args: { id: '41' } },
    ]);
    // The reconnect named the last event it had; the text streamed meanwhile shows once.
    expect(resumes.length).toBeGreaterThan(before);
    expect(Number(resumes.at(-1))).toBeGreaterThan(0);
    const texts = await page.locator('diosc-widget .message.assistant .text').allTextContents();
    expect(texts.join('|').match(/While you were away/g)).toHaveLength(1);
  });
});
