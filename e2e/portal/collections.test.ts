import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PortalHarness, signIn, startPortal } from './support/portal-harness.js';

/** Browsing and editing collections in the portal: conditional saves, conflicts, create, delete. */

let h: PortalHarness;

async function note(id: string) {
  return h.server.store.db
    .selectFrom('items')
    .select(['title', 'content', 'version'])
    .where('account_id', '=', h.server.accountId)
    .where('collection_id', '=', 'notes')
    .where('id', '=', id)
    .executeTakeFirst();
}

describe('collections', () => {
  beforeAll(async () => {
    h = await startPortal({ webmcp: false });
    await signIn(h.page, h.server.url, '/collections/notes/ideas');
  });

  afterAll(async () => {
    await h?.close();
  });

  it('saves a storage item with its version, and says so clearly when someone saved first', async () => {
    // A person edits once the item is there: its header shows the version they start from.
    await h.page.locator('diosc-item-panel header', { hasText: 'version 1' }).waitFor();
    const draft = h.page.locator('diosc-item-panel #draft');
    await draft.fill('1. Diagram editor\n2. Voice navigation\n3. Offline mode');
    await h.page.locator('diosc-item-panel button[type="submit"]').click();
    await h.page.locator('diosc-item-panel header', { hasText: 'version 2' }).waitFor();
    expect(await note('ideas')).toMatchObject({
      content: '1. Diagram editor\n2. Voice navigation\n3. Offline mode',
      version: 2,
    });

    // Someone else (an assistant, another tab) saves version 3 while the owner edits version 2.
    await h.server.store.db
      .updateTable('items')
      .set({ content: 'Changed elsewhere', version: 3 })
      .where('account_id', '=', h.server.accountId)
      .where('collection_id', '=', 'notes')
      .where('id', '=', 'ideas')
      .execute();
    await draft.fill('My edit on top of version 2');
    await h.page.locator('diosc-item-panel button[type="submit"]').click();
    const conflict = h.page.locator('diosc-item-panel .conflict');
    await conflict.waitFor();
    expect(await conflict.textContent()).toContain('Someone saved a newer version first');
    expect(await note('ideas')).toMatchObject({ content: 'Changed elsewhere', version: 3 });
    expect(await draft.inputValue()).toBe('My edit on top of version 2');

    await h.page.locator('diosc-item-panel .conflict button').click();
    await h.page.locator('diosc-item-panel header', { hasText: 'version 3' }).waitFor();
    expect(await draft.inputValue()).toBe('My edit on top of version 2');
    await h.page.locator('diosc-item-panel button[type="submit"]').click();
    await h.page.locator('diosc-item-panel header', { hasText: 'version 4' }).waitFor();
    expect(await note('ideas')).toMatchObject({ content: 'My edit on top of version 2', version: 4 });
  });

  it('creates a storage item without overwriting, then deletes it after confirmation', async () => {
    await h.page.locator('diosc-collections-page .page-head button.primary').click();
    await h.page.locator('#new-title').fill('Trip plan');
    await h.page.locator('#new-body').fill('Lisbon, March');
    await h.page.locator('diosc-new-item-dialog button[type="submit"]').click();
    await h.page.waitForURL(/\/collections\/notes\/trip-plan$/);
    expect(await note('trip-plan')).toMatchObject({
      title: 'Trip plan',
      content: 'Lisbon, March',
      version: 1,
    });

    // The same ID again is refused (ifNoneMatch: '*'), and the existing item is untouched.
    await h.page.locator('diosc-collections-page .page-head button.primary').click();
    await h.page.locator('#new-title').fill('Trip plan');
    await h.page.locator('#new-body').fill('Overwrite?');
    await h.page.locator('diosc-new-item-dialog button[type="submit"]').click();
    await h.page.locator('diosc-new-item-dialog [role="alert"]', { hasText: 'already exists' }).waitFor();
    expect(await note('trip-plan')).toMatchObject({ content: 'Lisbon, March', version: 1 });
    await h.page.keyboard.press('Escape');

    await h.page.locator('diosc-item-panel button.danger').click();
    await h.page.locator('diosc-item-panel diosc-confirm-dialog button.primary').click();
    await h.page.waitForURL(/\/collections\/notes$/);
    expect(await note('trip-plan')).toBeUndefined();
  });

  it('updates inbox metadata and keeps external mirrors read-only', async () => {
    await h.page.locator('diosc-collections-page a[href="/collections/inbox"]').click();
    await h.page.locator('diosc-collections-page a[href="/collections/inbox/travel"]').click();
    await h.page.locator('diosc-item-panel button', { hasText: 'Flag' }).click();
    await h.page.locator('diosc-item-panel .badge', { hasText: 'Flagged' }).waitFor();
    const row = await h.server.store.db
      .selectFrom('items')
      .select('metadata')
      .where('collection_id', '=', 'inbox')
      .where('id', '=', 'travel')
      .executeTakeFirst();
    expect(JSON.parse(row!.metadata!)).toMatchObject({ flagged: true });

    await h.page.locator('diosc-collections-page a[href="/collections/drive"]').click();
    await h.page.locator('diosc-collections-page a[href="/collections/drive/roadmap"]').click();
    await h.page.locator('diosc-item-panel pre').waitFor();
    expect(
      await h.page
        .locator('diosc-item-panel textarea, diosc-item-panel button')
        .filter({ visible: true })
        .count(),
    ).toBe(0);
    expect(await h.page.locator('diosc-collections-page .page-head button.primary').count()).toBe(0);
  });

  it('keeps what the owner typed after a save when the collection list refreshes underneath', async () => {
    await h.page.locator('diosc-collections-page a[href="/collections/notes"]').click();
    await h.page.locator('diosc-collections-page a[href="/collections/notes/groceries"]').click();
    const header = h.page.locator('diosc-item-panel header');
    await header.filter({ hasText: 'version 1' }).waitFor();

    // Every save refreshes the list (for the counts). Hold that refresh until the owner has typed on.
    let release = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    const list = '**/api/owner/operations/collections_list';
    await h.page.route(list, async (route) => {
      await held;
      await route.continue();
    });
    const draft = h.page.locator('diosc-item-panel #draft');
    await draft.fill('Milk');
    await h.page.locator('diosc-item-panel button[type="submit"]').click();
    await header.filter({ hasText: 'version 2' }).waitFor();
    await draft.fill('Milk, eggs');

    // Meanwhile someone else deleted a note, so the refreshed list visibly differs: its count drops.
    const notes = () =>
      h.server.store.db
        .selectFrom('items')
        .select('id')
        .where('account_id', '=', h.server.accountId)
        .where('collection_id', '=', 'notes');
    const before = (await notes().execute()).length;
    await h.server.store.db
      .deleteFrom('items')
      .where('account_id', '=', h.server.accountId)
      .where('collection_id', '=', 'notes')
      .where('id', '=', 'ideas')
      .execute();
    expect((await notes().execute()).length).toBe(before - 1);
    release();
    const count = new RegExp(`^\\s*${before - 1}\\s*$`);
    await h.page
      .locator('diosc-collections-page a[href="/collections/notes"] .badge', { hasText: count })
      .waitFor();
    await h.page.unroute(list);

    // The open item was not re-read: the draft, and the version it was started from, are still there.
    expect(await header.textContent()).toContain('version 2');
    expect(await draft.inputValue()).toBe('Milk, eggs');
    await h.page.locator('diosc-item-panel button[type="submit"]').click();
    await header.filter({ hasText: 'version 3' }).waitFor();
    expect(await note('groceries')).toMatchObject({ content: 'Milk, eggs', version: 3 });
  });
});
