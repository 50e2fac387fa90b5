import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBrowserTools } from './support/automation.js';
import { type PortalHarness, signIn, startPortal } from './support/portal-harness.js';
import { type Agent, attachAgent, failureText } from './support/webmcp-agent.js';

/**
 * Source disconnect (issue 10, item 1) in the portal, in Debian Chromium with native WebMCP: the
 * owner disconnects the demo's "Drive (mirror)" from Collections after a confirmation; the
 * browser's tools re-sync, every call naming it answers `source_revoked`, and a connected app's
 * grant naming it keeps every entry.
 */

let h: PortalHarness;
let agent: Agent;
let connectionId = '';

const source = () =>
  h.server.store.db
    .selectFrom('collections')
    .select('source_disconnected_at')
    .where('account_id', '=', h.server.accountId)
    .where('id', '=', 'drive')
    .executeTakeFirstOrThrow();
const grantOf = (id: string) =>
  h.server.store.db
    .selectFrom('app_connections')
    .select(['grant_json', 'grant_generation', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const confirm = () => h.page.locator('diosc-collections-page diosc-confirm-dialog dialog[open]');

describe('disconnecting a provider source in the portal (native WebMCP)', () => {
  beforeAll(async () => {
    h = await startPortal({ webmcp: true });
    const created = await h.server.app.diosc.connections.createMcp(h.server.accountId, {
      displayName: 'Mirror reader',
      grant: [
        { collection: 'drive', functions: ['items_list', 'item_read'] },
        { collection: 'notes', functions: ['items_list'] },
      ],
    });
    connectionId = created.connection.id;
    await signIn(h.page, h.server.url, '/automation-hub');
    agent = await attachAgent(h.page);
  });

  afterAll(async () => {
    await agent?.close();
    await h?.close();
  });

  it('asks first: cancelling changes nothing', async () => {
    await enableBrowserTools(h.page, [
      { collection: 'notes', functions: ['items_list'] },
      { collection: 'drive', functions: ['items_list', 'item_read'] },
    ]);
    await expect.poll(() => agent.tools()).toEqual(['collections_list', 'item_read', 'items_list']);
    const grant = await grantOf(connectionId);
    // Within the page (no reload), so the registration stays as it is.
    await h.page.locator('diosc-side-nav a[href="/collections"]').click();
    await h.page.locator('diosc-collections-page nav a', { hasText: 'Drive (mirror)' }).click();
    await h.page.locator('diosc-collections-page button.danger', { hasText: 'Disconnect source' }).click();
    await confirm().waitFor();
    expect(await confirm().textContent()).toContain('cannot be reconnected');
    await confirm().locator('button.cancel').click();
    await confirm().waitFor({ state: 'detached' });
    expect(await source()).toEqual({ source_disconnected_at: null });
    expect(await grantOf(connectionId)).toEqual(grant);
    const read = await agent.responded(await agent.invoke('items_list', { collection: 'drive' }));
    expect(read.status).toBe('Completed');
  });

  it('disconnects after confirming: the tools re-sync, calls naming it answer source_revoked, grants keep their entries', async () => {
    const grant = await grantOf(connectionId);
    const since = agent.events.seen.length;
    await h.page.locator('diosc-collections-page button.danger', { hasText: 'Disconnect source' }).click();
    await confirm().locator('button.primary').click();
    await h.page.locator('diosc-collections-page [data-state="disconnected"].badge').waitFor();
    await h.page
      .locator('diosc-collections-page .notice[data-state="disconnected"]', {
        hasText: 'has been disconnected',
      })
      .waitFor();
    expect((await source()).source_disconnected_at).not.toBeNull();
    expect(
      await h.page.locator('diosc-collections-page button.danger', { hasText: 'Disconnect source' }).count(),
    ).toBe(0);

    // Re-synced at once: item_read was drive's alone, so it is no longer offered.
    await agent.events.wait('WebMCP.toolsRemoved', () => true, since);
    await expect.poll(() => agent.tools()).toEqual(['collections_list', 'items_list']);
    const list = await agent.responded(await agent.invoke('items_list', { collection: 'drive' }));
    expect(list.status).toBe('Error');
    expect(failureText(list)).toContain('source_revoked');
    const notes = await agent.responded(await agent.invoke('items_list', { collection: 'notes' }));
    expect(notes.status).toBe('Completed');
    const listed = await agent.responded(await agent.invoke('collections_list', {}));
    const rows = (listed.output as { structuredContent: { collections: Record<string, unknown>[] } })
      .structuredContent.collections;
    expect(rows.find((row) => row.id === 'drive')).toMatchObject({ functions: [], state: 'disconnected' });

    // The connected app's grant is as the owner gave it (its notes entry works; drive is refused).
    expect(await grantOf(connectionId)).toEqual(grant);
    // Connected apps still lists it, active.
    await h.page.locator('diosc-side-nav a[href="/connected-apps"]').click();
    await h.page.locator('diosc-connected-apps-page td', { hasText: 'Mirror reader' }).waitFor();
  });
});
