import type { Page } from 'playwright-core';

/** Waits until the Automation hub's availability card shows `state`. */
export async function waitForAvailability(page: Page, state: string): Promise<void> {
  await page.locator(`diosc-availability-card section[data-state="${state}"]`).waitFor();
}

/** Ticks exactly these (collection × function) cells and turns browser tools on. */
export async function enableBrowserTools(
  page: Page,
  selection: { collection: string; functions: string[] }[],
): Promise<void> {
  for (const entry of selection) {
    for (const fn of entry.functions) {
      await page
        .locator(`diosc-enable-form input[data-collection="${entry.collection}"][data-function="${fn}"]`)
        .check();
    }
  }
  await page.locator('diosc-enable-form button[type="submit"]').click();
  await waitForAvailability(page, 'registered');
}
