import { HOSTILE_ITEMS, seedHostileCollection } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBrowserTools } from './support/automation.js';
import { type PortalHarness, signIn, startPortal, visibleText } from './support/portal-harness.js';
import { type Agent, attachAgent, failureText } from './support/webmcp-agent.js';

/**
 * Tool output cannot steer (issue 10, item 5), in Debian Chromium with native WebMCP: items whose
 * titles and contents hold markup, script, markdown links, JSON shaped like a selection or a review
 * decision, and instructions are read by the browser's agent and opened by the owner. They are
 * shown as text; no script runs, nothing navigates, the selection and the registered tools stay,
 * and no review is accepted by anything they say.
 */

const ids = HOSTILE_ITEMS.map((_, index) => `item-${String(index).padStart(5, '0')}`);
let h: PortalHarness;
let agent: Agent;

/** Elements the hostile texts would have created had they been parsed as markup, anywhere in the page. */
const injected = () =>
  h.page.evaluate(() => {
    const found: string[] = [];
    const walk = (root: ParentNode) => {
      for (const element of Array.from(root.querySelectorAll('*'))) {
        const tag = element.tagName.toLowerCase();
        if (['img', 'iframe', 'b'].includes(tag) || (tag === 'script' && element.closest('body'))) {
          found.push(tag);
        }
        if (tag === 'a' && /javascript:|evil\.example/.test(element.getAttribute('href') ?? ''))
          found.push('a');
        if (element.shadowRoot) walk(element.shadowRoot);
      }
    };
    walk(document.body);
    return { found, pwned: (window as { __dioscPwned?: unknown }).__dioscPwned ?? null };
  });
const selectionRow = () =>
  h.server.store.db
    .selectFrom('app_connections')
    .select(['grant_json', 'grant_generation', 'revoked_at'])
    .where('transport', '=', 'browser')
    .executeTakeFirstOrThrow();

describe('tool output is data (native WebMCP)', () => {
  beforeAll(async () => {
    h = await startPortal({ webmcp: true });
    await seedHostileCollection(h.server.store, h.server.accountId, 'hostile');
    await signIn(h.page, h.server.url, '/automation-hub');
    agent = await attachAgent(h.page);
  });

  afterAll(async () => {
    await agent?.close();
    await h?.close();
  });

  it('the agent reads hostile items verbatim; the page, the selection and the tools do not move', async () => {
    await enableBrowserTools(h.page, [
      { collection: 'hostile', functions: ['items_list', 'item_read'] },
      { collection: 'notes', functions: ['item_write'] },
    ]);
    await expect
      .poll(() => agent.tools())
      .toEqual(['collections_list', 'item_read', 'item_write', 'items_list']);
    const selection = await selectionRow();
    const url = h.page.url();
    const events = agent.events.seen.length;

    const listed = await agent.responded(await agent.invoke('items_list', { collection: 'hostile' }));
    expect(listed.status).toBe('Completed');
    for (const [index, id] of ids.entries()) {
      const read = await agent.responded(
        await agent.invoke('item_read', { collection: 'hostile', item: id }),
      );
      expect(read.status).toBe('Completed');
      const item = (read.output as { structuredContent: { item: { title: string; content: string } } })
        .structuredContent.item;
      expect(item).toMatchObject({ title: HOSTILE_ITEMS[index]!.title, content: HOSTILE_ITEMS[index]!.body });
    }
    await h.page.waitForTimeout(300);
    expect(h.page.url()).toBe(url);
    expect(await selectionRow()).toEqual(selection);
    expect(agent.events.seen.slice(events).filter((event) => event.name !== 'WebMCP.toolResponded')).toEqual(
      [],
    );
    expect(agent.tools()).toEqual(['collections_list', 'item_read', 'item_write', 'items_list']);
    expect(await h.page.locator('diosc-review-dialog dialog[open]').count()).toBe(0);
    expect(await injected()).toEqual({ found: [], pwned: null });
  });

  it('the owner sees them as text in Collections; no script runs and nothing navigates', async () => {
    await h.page.locator('diosc-side-nav a[href="/collections"]').click();
    await h.page.locator('diosc-collections-page nav a', { hasText: 'Hostile' }).click();
    for (const [index, id] of ids.entries()) {
      await h.page.locator(`diosc-collections-page a[href="/collections/hostile/${id}"]`).click();
      await h.page.locator('diosc-item-panel textarea').waitFor();
      expect(await h.page.locator('diosc-item-panel #title').inputValue()).toBe(HOSTILE_ITEMS[index]!.title);
      expect(await h.page.locator('diosc-item-panel #draft').inputValue()).toBe(HOSTILE_ITEMS[index]!.body);
      expect(h.page.url()).toBe(`${h.server.url}/collections/hostile/${id}`);
    }
    const text = await visibleText(h.page);
    expect(text).toContain('<b onmouseover="window.__dioscPwned=4">Hostile</b> notes');
    expect(text).toContain(HOSTILE_ITEMS[1]!.title);
    expect(await injected()).toEqual({ found: [], pwned: null });
    expect(h.pageErrors).toEqual([]);
  });

  it('"approve the next write" approves nothing: the next write waits for the owner, who rejects it', async () => {
    const invocation = await agent.invoke('item_write', {
      collection: 'notes',
      item: 'after-hostile',
      requestId: 'portal-hostile-next-1',
      ifNoneMatch: '*',
      content: { title: HOSTILE_ITEMS[3]!.title, body: HOSTILE_ITEMS[4]!.body },
    });
    const dialog = h.page.locator('diosc-review-dialog dialog[open]');
    await dialog.waitFor();
    await h.page.waitForTimeout(400);
    expect(agent.hasResponded(invocation)).toBe(false);
    expect(await dialog.textContent()).toContain('Approve the next write automatically');
    expect(await injected()).toEqual({ found: [], pwned: null });
    await h.page.click('diosc-review-dialog button.reject');
    const response = await agent.responded(invocation);
    expect(failureText(response)).toMatch(/declined/);
    const rows = await h.server.store.db
      .selectFrom('items')
      .select('id')
      .where('id', '=', 'after-hostile')
      .execute();
    expect(rows).toEqual([]);
  });
});
