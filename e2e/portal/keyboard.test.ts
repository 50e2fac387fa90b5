import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForAvailability } from './support/automation.js';
import { type FocusedElement, focusContrast, focused, tabTo } from './support/focus.js';
import { OWNER_PASSWORD, type PortalHarness, startPortal } from './support/portal-harness.js';
import { type Agent, attachAgent } from './support/webmcp-agent.js';

/**
 * The portal with the keyboard only — sign in, skip to the content, move between pages, use the
 * palette, choose what browser tools may do, review and approve a change — asserting after each
 * step where focus is (never lost to <body>) and that its ring is visible (≥ 3:1).
 */
describe('the portal by keyboard alone', () => {
  let h: PortalHarness;
  let agent: Agent;
  const rings: string[] = [];

  /** Focus must be on a real element, and its ring and field border clearly visible. */
  async function expectVisibleFocus(where: string): Promise<FocusedElement> {
    const element = await focused(h.page);
    expect(element.tag, `${where}: focus fell to the page`).not.toBe('body');
    const contrast = await focusContrast(h.page);
    if (element.tag !== 'main' && contrast.ring < 3)
      rings.push(`${where}: ring ${contrast.ring.toFixed(2)} ${contrast.detail}`);
    if (contrast.border !== null && contrast.border < 3)
      rings.push(`${where}: border ${contrast.border.toFixed(2)} ${contrast.detail}`);
    return element;
  }
  const isMain = (element: FocusedElement) => element.tag === 'main' && element.id === 'main';

  beforeAll(async () => {
    h = await startPortal({ webmcp: true });
  });
  afterAll(async () => {
    await agent?.close();
    await h?.close();
  });

  it('signs in, and focus lands on the page it opens — the inbox', async () => {
    await h.page.goto(`${h.server.url}/`);
    await h.page.locator('#email').waitFor();
    expect((await expectVisibleFocus('sign-in')).id).toBe('email');
    await h.page.keyboard.type('owner@localhost');
    await h.page.keyboard.press('Tab');
    expect((await expectVisibleFocus('password')).id).toBe('password');
    await h.page.keyboard.type('wrong password');
    await h.page.keyboard.press('Enter');
    await h.page.locator('diosc-sign-in-page [role="alert"]').waitFor();
    // The refusal is tied to the fields, and focus is where it was, not on <body>.
    const fields = await h.page.evaluate(() =>
      ['email', 'password'].map((id) => {
        const input = document
          .querySelector('diosc-app')
          ?.shadowRoot?.querySelector('diosc-sign-in-page')
          ?.shadowRoot?.getElementById(id);
        return [input?.getAttribute('aria-invalid'), input?.getAttribute('aria-describedby')];
      }),
    );
    expect(fields).toEqual([
      ['true', 'sign-in-error'],
      ['true', 'sign-in-error'],
    ]);
    await expectVisibleFocus('after a refused sign-in');
    await h.page.locator('#password').fill('');
    await h.page.locator('#password').focus();
    await h.page.keyboard.type(OWNER_PASSWORD);
    await h.page.keyboard.press('Enter');
    await h.page.waitForURL(/\/collections\/inbox$/);
    await expect.poll(async () => isMain(await focused(h.page))).toBe(true);
  });

  it('the first Tab stop of a page is a skip link to the content', async () => {
    await h.page.reload();
    await h.page.locator('diosc-collections-page a[href="/collections/inbox/welcome"]').waitFor();
    await h.page.keyboard.press('Tab');
    const skip = await expectVisibleFocus('skip link');
    expect(skip.attributes.class).toBe('skip-link');
    expect(skip.text).toBe('Skip to content');
    await h.page.keyboard.press('Enter');
    expect(isMain(await focused(h.page))).toBe(true);
  });

  it('moves between pages with the shortcuts and the palette; focus goes to the new page', async () => {
    await h.page.keyboard.press('g');
    await h.page.keyboard.press('a');
    await h.page.waitForURL(/\/connected-apps$/);
    await expect.poll(async () => isMain(await focused(h.page))).toBe(true);
    await h.page.keyboard.press('Control+k');
    await h.page.locator('diosc-command-palette dialog[open]').waitFor();
    expect((await expectVisibleFocus('palette')).attributes.role).toBe('combobox');
    // The result list is not a Tab stop of its own: Tab leaves the list alone.
    await h.page.keyboard.press('Tab');
    expect((await focused(h.page)).attributes.role).not.toBe('listbox');
    await h.page.keyboard.press('Shift+Tab');
    expect((await focused(h.page)).attributes.role).toBe('combobox');
    await h.page.keyboard.type('automation');
    await h.page.keyboard.press('Enter');
    await h.page.waitForURL(/\/automation-hub$/);
    await waitForAvailability(h.page, 'disabled');
    // Not back on the palette button: on the page the command opened.
    await expect.poll(async () => isMain(await focused(h.page))).toBe(true);
    await h.page.waitForTimeout(100);
    expect(isMain(await focused(h.page))).toBe(true);
  });

  it('chooses what browser tools may do, and focus stays on the button that turned them on', async () => {
    const cell = (collection: string, fn: string) => (element: FocusedElement) =>
      element.attributes['data-collection'] === collection && element.attributes['data-function'] === fn;
    for (const fn of ['items_list', 'item_read', 'item_write']) {
      await tabTo(h.page, cell('notes', fn));
      await expectVisibleFocus(`notes ${fn}`);
      await h.page.keyboard.press('Space');
    }
    const submit = await tabTo(h.page, (element) => element.attributes.type === 'submit');
    expect(submit.host).toBe('diosc-enable-form');
    await expectVisibleFocus('turn on');
    await h.page.keyboard.press('Enter');
    await waitForAvailability(h.page, 'registered');
    const after = await expectVisibleFocus('after turning on');
    expect(after.attributes.type).toBe('submit');
    expect(after.attributes['aria-disabled']).toBe('true');
  });

  it('reviews and approves a change with the keyboard; focus returns to where it was', async () => {
    agent = await attachAgent(h.page);
    const invocation = await agent.invoke('item_write', {
      collection: 'notes',
      item: 'keyboard',
      requestId: 'portal-keyboard-0001',
      ifNoneMatch: '*',
      content: { title: 'Keyboard', body: 'approved with Enter' },
    });
    await h.page.locator('diosc-review-dialog dialog[open]').waitFor();
    const reject = await expectVisibleFocus('review opened');
    expect(reject.attributes.class).toBe('reject');
    await h.page.keyboard.press('Tab');
    const approve = await expectVisibleFocus('approve');
    expect(approve.attributes.class).toContain('approve');
    await h.page.keyboard.press('Enter');
    const response = await agent.responded(invocation);
    expect(response.status).toBe('Completed');
    await h.page.locator('diosc-review-dialog dialog[open]').waitFor({ state: 'detached' });
    const back = await expectVisibleFocus('review closed');
    expect(back.attributes.type).toBe('submit');
    const row = await h.server.store.db
      .selectFrom('items')
      .select(['content', 'version'])
      .where('id', '=', 'keyboard')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ content: 'approved with Enter', version: 1 });
  });

  it('showed a clearly visible focus ring (≥ 3:1) and field borders on every stop', () => {
    expect(rings).toEqual([]);
  });
});
