import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page, Request } from 'playwright-core';

export const SCREENSHOTS = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));

/** Sends from the widget as a visitor would: type, press Enter. */
export async function ask(page: Page, text: string): Promise<void> {
  await page.locator('diosc-widget textarea').fill(text);
  await page.locator('diosc-widget textarea').press('Enter');
}

/** The consensus dialog (open when visible). */
export const dialog = (page: Page) => page.locator('diosc-consensus-dialog dialog');

/** Every interrupt answer the page posts, as the JSON it sent. */
export function recordAnswers(page: Page): unknown[] {
  const bodies: unknown[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'POST' && /\/interrupts\/[^/]+\/answer$/.test(request.url()))
      bodies.push(request.postDataJSON());
  });
  return bodies;
}

/** Writes a screenshot for the docs under test-results/screenshots/ (`npm run docs:refresh` copies them). */
export async function screenshot(target: Page | ReturnType<Page['locator']>, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await target.screenshot({ path: `${SCREENSHOTS}${name}.png` });
}

/** The text of the control that holds focus inside the consensus dialog, if any. */
export function focusedInDialog(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const root = document
      .querySelector('diosc-widget')
      ?.shadowRoot?.querySelector('diosc-consensus-dialog')?.shadowRoot;
    return root?.activeElement?.textContent?.trim() ?? null;
  });
}

/** Moves focus as a keyboard user does — real Tab presses — until the named control has it. */
export async function tabTo(page: Page, name: string, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let presses = 0; presses < 8; presses++) {
    if ((await focusedInDialog(page)) === name) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached "${name}" (focus is on "${await focusedInDialog(page)}")`);
}
