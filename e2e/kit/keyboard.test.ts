import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { sequence } from './support/model-calls.js';
import { ask, dialog } from './support/widget.js';

/**
 * The widget and its consensus dialog with the keyboard alone, in Debian Chromium: real key
 * presses, and where focus is after each (never the page's <body>, never outside the widget).
 */
let e2e: KitE2E;
beforeAll(async () => {
  e2e = await startKitE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** What holds focus, through the widget's shadow roots: `tag.class` or `tag#id`, with its root's host. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active: Element | null = document.activeElement;
    const hosts: string[] = [];
    while (active?.shadowRoot?.activeElement) {
      hosts.push(active.localName);
      active = active.shadowRoot.activeElement;
    }
    if (!active) return 'nothing';
    const name = active.id
      ? `#${active.id}`
      : active.classList.length
        ? `.${[...active.classList].join('.')}`
        : '';
    return [...hosts, `${active.localName}${name}`].join(' > ');
  });
}

const contrast = (hex: string, against = [255, 255, 255]) => {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = (rgb: number[]) =>
    0.2126 * channel(rgb[0]!) + 0.7152 * channel(rgb[1]!) + 0.0722 * channel(rgb[2]!);
  const rgb = hex.match(/\d+/g)!.slice(0, 3).map(Number);
  const [a, b] = [luminance(rgb), luminance(against)].sort((x, y) => y - x);
  return (a! + 0.05) / (b! + 0.05);
};

for (const locale of ['en', 'es'])
  describe(`the widget with the keyboard alone (${locale})`, () => {
    it('opens into the composer, closes onto the launcher, and scrolls a long conversation with the arrow keys', async () => {
      e2e.script = (call) => ({ text: `Reply ${call.prompt.length}: ${'A long answer line. '.repeat(20)}` });
      const { page } = await e2e.open('/shop', { locale });
      expect(await page.locator('diosc-widget').evaluate((widget) => widget.getAttribute('lang'))).toBe(
        locale,
      );
      for (let i = 0; i < 6; i++) {
        await ask(page, `Question ${i}`);
        await page.locator('diosc-widget .message.assistant').nth(i).waitFor();
      }
      await page.locator('diosc-widget .launcher').focus();
      await page.keyboard.press('Enter');
      await page.locator('diosc-widget .panel').waitFor({ state: 'detached' });
      expect(await focused(page)).toBe('diosc-widget > button.launcher.primary');
      await page.keyboard.press('Enter');
      await page.locator('diosc-widget .panel').waitFor();
      await expect.poll(() => focused(page)).toBe('diosc-widget > diosc-composer > textarea');
      // The message list is a stop on the way back, and arrows scroll it.
      const list = page.locator('diosc-widget .messages');
      expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
      for (let presses = 0; presses < 8 && (await focused(page)) !== 'diosc-widget > ol.messages'; presses++)
        await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).toBe('diosc-widget > ol.messages');
      await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      const bottom = await list.evaluate((el) => el.scrollTop);
      await page.keyboard.press('PageUp');
      await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBeLessThan(bottom);
      // The ring that shows it is 3:1 or more against white.
      const ring = await list.evaluate((el) => getComputedStyle(el).outlineColor);
      expect(contrast(ring)).toBeGreaterThanOrEqual(3);
    });

    it('reviews, rejects with a reason and returns focus to the composer, all by keyboard', async () => {
      e2e.script = sequence(
        { toolCalls: [{ toolName: 'browser_apply_changes', input: { ops: [{ id: '42', price: 2 }] } }] },
        { text: 'Left as it was.' },
      );
      const { page } = await e2e.open('/shop', { locale });
      await ask(page, 'Make Assam cheaper');
      await dialog(page).waitFor();
      await expect.poll(() => focused(page)).toBe('diosc-widget > diosc-consensus-dialog > button.reject');
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('diosc-widget > diosc-consensus-dialog > textarea#reason');
      await page.keyboard.type('Not today.');
      for (
        let presses = 0;
        presses < 4 && !(await focused(page)).endsWith('button.primary.danger');
        presses++
      )
        await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('diosc-widget > diosc-consensus-dialog > button.primary.danger');
      await page.keyboard.press('Enter');
      await dialog(page).waitFor({ state: 'hidden' });
      await expect.poll(() => focused(page)).toBe('diosc-widget > diosc-composer > textarea');
      await page.locator('diosc-widget .message.assistant', { hasText: 'Left as it was.' }).waitFor();
    });

    it('edits the proposed values and runs them, all by keyboard', async () => {
      e2e.script = sequence(
        { toolCalls: [{ toolName: 'browser_rename_catalogue', input: { title: 'Spring teas' } }] },
        { text: 'Renamed.' },
      );
      const { page } = await e2e.open('/shop', { locale });
      await ask(page, 'Rename the catalogue');
      await dialog(page).waitFor();
      await expect.poll(() => focused(page)).toBe('diosc-widget > diosc-consensus-dialog > button.reject');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('diosc-widget > diosc-consensus-dialog > button.edit');
      await page.keyboard.press('Enter');
      // Edit mode starts on its first field.
      await expect
        .poll(async () => (await focused(page)).startsWith('diosc-widget > diosc-consensus-dialog > input'))
        .toBe(true);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Autumn teas');
      for (let presses = 0; presses < 6 && !(await focused(page)).endsWith('button.primary.edit'); presses++)
        await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('diosc-widget > diosc-consensus-dialog > button.primary.edit');
      await page.keyboard.press('Enter');
      await dialog(page).waitFor({ state: 'hidden' });
      await expect.poll(() => focused(page)).toBe('diosc-widget > diosc-composer > textarea');
      await page.locator('diosc-widget .message.assistant', { hasText: 'Renamed.' }).waitFor();
      expect(await page.evaluate(() => window.shop.runs())).toEqual([
        { tool: 'rename_catalogue', args: { title: 'Autumn teas', pinned: false } },
      ]);
    });
  });
