import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PortalHarness, signIn, startPortal } from './support/portal-harness.js';

/** Keyboard navigation to the Automation hub: the `g h` sequence and the Ctrl+K command palette. */

const hubHeading = (h: PortalHarness) => h.page.locator('diosc-automation-hub-page h1');

function deepFocus(h: PortalHarness) {
  return h.page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active ? `${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : ''}` : null;
  });
}

describe('portal navigation', () => {
  let h: PortalHarness;

  beforeAll(async () => {
    h = await startPortal({ webmcp: false });
    await signIn(h.page, h.server.url, '/collections/notes');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('has a nav entry for the Automation hub', async () => {
    await h.page.locator('diosc-side-nav a[href="/automation-hub"]').click();
    await hubHeading(h).waitFor();
    expect(new URL(h.page.url()).pathname).toBe('/automation-hub');
    expect(await h.page.locator('diosc-side-nav a[aria-current="page"]').textContent()).toContain(
      'Automation hub',
    );
  });

  it('"g h" goes to the Automation hub, but not while typing in a field', async () => {
    await h.page.locator('diosc-side-nav a[href="/collections"]').click();
    await h.page.locator('diosc-collections-page a[href="/collections/notes"]').click();
    await h.page.locator('diosc-collections-page a[href="/collections/notes/groceries"]').click();
    const title = h.page.locator('diosc-item-panel #title');
    await title.click();
    await h.page.keyboard.press('End');
    await h.page.keyboard.type(' gh');
    await h.page.keyboard.press('g');
    await h.page.keyboard.press('h');
    expect(new URL(h.page.url()).pathname).toBe('/collections/notes/groceries');
    expect(await title.inputValue()).toBe('Groceries ghgh');

    await h.page.locator('diosc-collections-page h1').click();
    await h.page.keyboard.press('g');
    await h.page.keyboard.press('h');
    await hubHeading(h).waitFor();
    expect(new URL(h.page.url()).pathname).toBe('/automation-hub');
  });

  it('Ctrl+K opens the command palette; its Automation hub command goes there and focus comes back', async () => {
    await h.page.locator('diosc-side-nav a[href="/connected-apps"]').click();
    await h.page.locator('diosc-connected-apps-page h1').waitFor();
    await h.page.locator('diosc-connected-apps-page .page-head button.primary').focus();
    await h.page.keyboard.press('Control+k');
    const palette = h.page.locator('diosc-command-palette dialog[open]');
    await palette.waitFor();
    expect(await deepFocus(h)).toBe('input');
    await h.page.keyboard.type('autom');
    const first = h.page.locator('diosc-command-palette li[aria-selected="true"]');
    expect(await first.textContent()).toContain('Automation hub');
    await h.page.keyboard.press('Enter');
    await hubHeading(h).waitFor();
    expect(await palette.count()).toBe(0);

    // Escape closes it and gives focus back to where it was.
    await h.page.locator('diosc-app header .palette-button').click();
    await palette.waitFor();
    await h.page.keyboard.press('Escape');
    await palette.waitFor({ state: 'detached' });
    expect(await deepFocus(h)).toBe('button');
  });

  it('the palette ranks fuzzy matches and opens a collection', async () => {
    await h.page.keyboard.press('Control+k');
    await h.page.locator('diosc-command-palette dialog[open]').waitFor();
    await h.page.keyboard.type('nots');
    await h.page.locator('diosc-command-palette li[aria-selected="true"]', { hasText: 'Notes' }).waitFor();
    await h.page.keyboard.press('Enter');
    await h.page.waitForURL(/\/collections\/notes$/);
  });
});
