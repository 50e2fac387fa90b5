import type { ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBrowserTools, waitForAvailability } from './support/automation.js';
import { OWNER_PASSWORD, type PortalHarness, startPortal, visibleText } from './support/portal-harness.js';
import { type Agent, attachAgent, failureText } from './support/webmcp-agent.js';

/**
 * What a new owner meets first: where sign-in leads, a quiet console in normal states, an activity
 * log in words that says which calls came from earlier sessions, a replayed write reported as
 * already done (no review), and notices that stay in a corner.
 */
describe('first steps in the portal', () => {
  let h: PortalHarness;
  let agent: Agent;
  const consoleLines: ConsoleMessage[] = [];

  const app = () => h.page.locator('diosc-app');
  /** A new note the agent asks to create (so a review opens, unless it was already done). */
  const newNote = (item: string, requestId: string) => ({
    collection: 'notes',
    item,
    requestId,
    ifNoneMatch: '*',
    content: { title: item, body: `${item} body` },
  });
  /** The agent asks for a write and the owner rejects it in the review. */
  async function rejected(item: string, requestId: string): Promise<void> {
    const call = await agent.invoke('item_write', newNote(item, requestId));
    await reviewOpen().waitFor();
    await h.page.click('diosc-review-dialog button.reject');
    await agent.responded(call);
  }
  const reviewOpen = () => h.page.locator('diosc-review-dialog dialog[open]');
  /** Console errors and warnings since `from`, and any line from i18next itself. */
  const noisy = (from: number) =>
    consoleLines
      .slice(from)
      .filter((line) => line.type() === 'error' || line.type() === 'warning' || /i18next/i.test(line.text()))
      .map((line) => `${line.type()}: ${line.text()}`);

  async function signOut(): Promise<void> {
    await app().locator('header button.ghost').click();
    await h.page.locator('#email').waitFor();
  }
  async function signInAgain(): Promise<void> {
    await h.page.locator('#email').fill('owner@localhost');
    await h.page.locator('#password').fill(OWNER_PASSWORD);
    await h.page.locator('button[type="submit"]').click();
    await app().locator('diosc-side-nav').waitFor();
  }

  beforeAll(async () => {
    h = await startPortal({ webmcp: true });
    h.page.on('console', (line) => consoleLines.push(line));
  });
  afterAll(async () => {
    await agent?.close();
    await h?.close();
  });

  it('loads signed out with a silent console: no 401, no i18next notice', async () => {
    const from = consoleLines.length;
    await h.page.goto(`${h.server.url}/`);
    await h.page.locator('#email').waitFor();
    await h.page.waitForTimeout(300);
    expect(noisy(from)).toEqual([]);
  });

  it('opens the inbox after sign-in, then the collection used last', async () => {
    await signInAgain();
    await h.page.waitForURL(/\/collections\/inbox$/);
    await h.page.locator('diosc-collections-page a[href="/collections/notes"]').click();
    await h.page.waitForURL(/\/collections\/notes$/);
    await signOut();
    await signInAgain();
    await h.page.waitForURL(/\/collections\/notes$/);
  });

  it('shows the Automation hub with tools off without a red 403 in the console', async () => {
    const from = consoleLines.length;
    await h.page.goto(`${h.server.url}/automation-hub`);
    await waitForAvailability(h.page, 'disabled');
    await h.page.waitForTimeout(300);
    expect(noisy(from)).toEqual([]);
  });

  it('names every outcome in words, and marks the calls of earlier sessions', async () => {
    await enableBrowserTools(h.page, [
      { collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] },
    ]);
    agent = await attachAgent(h.page);
    // A refusal the server records with its code (inbox is not in the selection) and a rejected write.
    expect(
      failureText(await agent.responded(await agent.invoke('items_list', { collection: 'inbox' }))),
    ).toMatch(/not_granted/);
    await rejected('earlier', 'first-steps-0001');
    const log = h.page.locator('diosc-activity-log');
    await log.locator('td', { hasText: 'first-steps-0001' }).waitFor();
    await log.locator('.badge', { hasText: 'Refused: Not granted' }).waitFor();
    expect(await log.locator('.badge').allTextContents()).not.toContain('not_granted');

    await signOut();
    await signInAgain();
    await h.page.goto(`${h.server.url}/automation-hub`);
    await waitForAvailability(h.page, 'disabled');
    // The server's rows of the last session are still listed, now under "Earlier sessions".
    const earlier = log.locator('tbody[data-group="earlier"]');
    await earlier.locator('th', { hasText: 'Earlier sessions' }).waitFor();
    await earlier.locator('.badge', { hasText: 'Refused: Not granted' }).waitFor();
    expect(await log.locator('tbody[data-group="current"]').count()).toBe(0);
    const text = await visibleText(h.page);
    expect(text).not.toMatch(/\bnot_granted\b/);
  });

  it('says a replayed write was already done, and asks for no decision', async () => {
    await enableBrowserTools(h.page, [
      { collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] },
    ]);
    await agent.close();
    agent = await attachAgent(h.page);
    const input = newNote('replayed', 'first-steps-0002');
    const first = await agent.invoke('item_write', input);
    await reviewOpen().waitFor();
    await h.page.click('diosc-review-dialog button.approve');
    const done = await agent.responded(first);
    expect(done.status).toBe('Completed');
    const reviews = await h.server.store.db.selectFrom('review_receipts').select('id').execute();

    const again = await agent.invoke('item_write', input);
    const replayed = await agent.responded(again);
    expect(replayed.status).toBe('Completed');
    expect(replayed.output).toEqual(done.output);
    expect(await reviewOpen().count()).toBe(0);
    expect(await h.server.store.db.selectFrom('review_receipts').select('id').execute()).toEqual(reviews);
    await app()
      .locator('diosc-toast-region .toast', { hasText: 'Already done: request first-steps-0002' })
      .waitFor();
    await h.page
      .locator('diosc-activity-log tbody[data-group="current"] .badge', {
        hasText: 'Already done (replayed)',
      })
      .waitFor();
    const rows = await h.server.store.db
      .selectFrom('items')
      .select('version')
      .where('id', '=', 'replayed')
      .execute();
    expect(rows).toEqual([{ version: 1 }]);
  });

  it('stacks notices in the bottom-right corner, at most three at once', async () => {
    for (let i = 0; i < 4; i++) await rejected(`toast-${i}`, `first-steps-toast-${i}`);
    const toasts = app().locator('diosc-toast-region .toast');
    expect(await toasts.count()).toBeLessThanOrEqual(3);
    expect(await toasts.count()).toBeGreaterThan(0);
    const viewport = h.page.viewportSize()!;
    for (const box of await Promise.all((await toasts.all()).map((toast) => toast.boundingBox()))) {
      expect(viewport.width - (box!.x + box!.width)).toBeLessThanOrEqual(24);
      expect(box!.x).toBeGreaterThan(viewport.width / 2);
      expect(viewport.height - (box!.y + box!.height)).toBeLessThan(viewport.height / 2);
    }
  });
});

describe('first steps on a server whose operator kept browser tools off', () => {
  let h: PortalHarness;
  const errors: string[] = [];
  beforeAll(async () => {
    h = await startPortal({ webmcp: true, server: { config: { browserAccess: false } } });
    h.page.on('console', (line) => {
      if (line.type() === 'error') errors.push(line.text());
    });
  });
  afterAll(() => h?.close());

  it('shows the Automation hub in its gate state with no red 403 in the console', async () => {
    await h.page.goto(`${h.server.url}/automation-hub`);
    await h.page.locator('#email').fill('owner@localhost');
    await h.page.locator('#password').fill(OWNER_PASSWORD);
    await h.page.locator('button[type="submit"]').click();
    await waitForAvailability(h.page, 'feature-disabled');
    await h.page.reload();
    await waitForAvailability(h.page, 'feature-disabled');
    await h.page.waitForTimeout(300);
    expect(errors).toEqual([]);
  });
});
