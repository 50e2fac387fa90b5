import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBrowserTools, waitForAvailability } from './support/automation.js';
import {
  OWNER_PASSWORD,
  type PortalHarness,
  screenshot,
  signIn,
  startPortal,
} from './support/portal-harness.js';
import { type Agent, attachAgent, failureText } from './support/webmcp-agent.js';

/** The Automation hub's availability states, each with its explanation and fixing action. */

describe('availability in a browser without WebMCP (no flag)', () => {
  let h: PortalHarness;

  beforeAll(async () => {
    h = await startPortal({ webmcp: false });
    await signIn(h.page, h.server.url, '/automation-hub');
  });

  afterAll(async () => {
    await h?.close();
  });

  /** The token of the dialog that shows it once (waiting for the dialog to open). */
  async function shownToken(): Promise<string> {
    await h.page.locator('diosc-token-dialog dialog[open]').waitFor();
    return h.page.locator('#token').inputValue();
  }

  it('shows "unsupported" with the way to Connected apps, and no enable form', async () => {
    expect(await h.page.evaluate(() => 'modelContext' in document)).toBe(false);
    await waitForAvailability(h.page, 'unsupported');
    expect(await h.page.locator('diosc-enable-form').count()).toBe(0);
    const card = (await h.page.locator('diosc-availability-card section').textContent()) ?? '';
    expect(card).toContain('This browser has no built-in agent tools');
    await h.page.locator('diosc-availability-card a', { hasText: 'Go to Connected apps' }).click();
    await h.page.waitForURL(/\/connected-apps$/);
  });

  it('still manages HTTP MCP connections: exact grant, token shown once, rotate, revoke', async () => {
    await h.page.locator('diosc-connected-apps-page .page-head button.primary').click();
    await h.page.locator('#app-name').fill('Claude Desktop');
    await h.page
      .locator('diosc-connection-form-dialog input[data-collection="notes"][data-function="items_list"]')
      .check();
    await h.page
      .locator('diosc-connection-form-dialog input[data-collection="notes"][data-function="item_read"]')
      .check();
    await h.page.locator('diosc-connection-form-dialog button[type="submit"]').click();
    const token = await shownToken();
    expect(token).toMatch(/^dsc_/);
    expect(await h.page.locator('#mcp-url').inputValue()).toContain('/mcp');
    await h.page.locator('diosc-token-dialog .dialog-actions button').click();
    await h.page.locator('diosc-connected-apps-page td', { hasText: 'Claude Desktop' }).waitFor();
    // The token is gone from the page once the dialog closed; the server kept only a hash.
    await expect.poll(() => h.page.locator('#token').inputValue()).toBe('');
    const rows = await h.server.store.db
      .selectFrom('app_connections')
      .select(['grant_json', 'token_hash', 'transport'])
      .where('display_name', '=', 'Claude Desktop')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.transport).toBe('http_mcp');
    expect(rows[0]!.token_hash).not.toContain(token);
    expect(JSON.parse(rows[0]!.grant_json)).toEqual([
      { collection: 'notes', functions: ['items_list', 'item_read'] },
    ]);

    // Its grant can be changed exactly, without a new token.
    await h.page.locator('diosc-connected-apps-page button', { hasText: 'Edit access' }).click();
    await h.page
      .locator('diosc-connection-form-dialog input[data-collection="notes"][data-function="item_write"]')
      .check();
    await h.page.locator('diosc-connection-form-dialog button[type="submit"]').click();
    await h.page
      .locator('diosc-connected-apps-page .badge', { hasText: 'notes: List, Read, Write' })
      .waitFor();
    const changed = await h.server.store.db
      .selectFrom('app_connections')
      .select(['grant_json', 'grant_generation', 'token_hash'])
      .where('display_name', '=', 'Claude Desktop')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(changed.grant_json)).toEqual([
      { collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] },
    ]);
    expect(changed.token_hash).toBe(rows[0]!.token_hash);

    // Browser-session access is shown apart, and called what it is.
    const browserSection =
      (await h.page.locator('diosc-connected-apps-page section.browser').textContent()) ?? '';
    expect(browserSection).toContain('Browser-session access');
    expect(browserSection).toContain('Not an assistant connection');

    // A second connection, so the screenshot shows a real list.
    await h.page.locator('diosc-connected-apps-page .page-head button.primary').click();
    await h.page.locator('#app-name').fill('Inbox triage bot');
    for (const fn of ['items_list', 'item_read', 'item_write']) {
      await h.page
        .locator(`diosc-connection-form-dialog input[data-collection="inbox"][data-function="${fn}"]`)
        .check();
    }
    await h.page.locator('diosc-connection-form-dialog button[type="submit"]').click();
    await h.page.locator('diosc-token-dialog .dialog-actions button').click();
    await h.page.locator('diosc-connected-apps-page td', { hasText: 'Inbox triage bot' }).waitFor();

    await h.page.locator('diosc-connected-apps-page button', { hasText: 'Rotate token' }).first().click();
    await h.page.locator('diosc-connected-apps-page diosc-confirm-dialog button.primary').click();
    const rotated = await shownToken();
    expect(rotated).toMatch(/^dsc_/);
    expect(rotated).not.toBe(token);
    await h.page.locator('diosc-token-dialog .dialog-actions button').click();

    await h.page.locator('diosc-connected-apps-page button.danger', { hasText: 'Revoke' }).last().click();
    await h.page.locator('diosc-connected-apps-page diosc-confirm-dialog button.primary').click();
    await h.page.locator('diosc-connected-apps-page .badge', { hasText: 'Revoked' }).waitFor();
    const revoked = await h.server.store.db
      .selectFrom('app_connections')
      .select('display_name')
      .where('revoked_at', 'is not', null)
      .execute();
    expect(revoked).toHaveLength(1);
    await screenshot(h.page, 'connected-apps.png', { fullPage: true });
  });
});

describe('availability in Chromium with WebMCP', () => {
  let h: PortalHarness;
  let agent: Agent;

  beforeAll(async () => {
    h = await startPortal({ webmcp: true });
    await signIn(h.page, h.server.url, '/automation-hub');
    agent = await attachAgent(h.page);
  });

  afterAll(async () => {
    await agent?.close();
    await h?.close();
  });

  it('shows "disabled" with the action that leads to the selection', async () => {
    await waitForAvailability(h.page, 'disabled');
    await h.page.locator('diosc-availability-card button', { hasText: 'Choose what to allow' }).click();
    const focused = await h.page.evaluate(() => {
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return active?.getAttribute('data-collection');
    });
    expect(focused).toBeTruthy();
  });

  it('shows "registered" with the registered tools, and turning off removes them', async () => {
    await enableBrowserTools(h.page, [{ collection: 'inbox', functions: ['items_list'] }]);
    await expect.poll(() => agent.tools()).toEqual(['collections_list', 'items_list']);
    await h.page.locator('diosc-availability-card button', { hasText: 'Turn off' }).click();
    await waitForAvailability(h.page, 'disabled');
    await expect.poll(() => agent.tools()).toEqual([]);
    const live = await h.server.store.db
      .selectFrom('app_connections')
      .select('id')
      .where('transport', '=', 'browser')
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });

  it('shows "failure" with a plain-text reason when the descriptors request fails, and "Try again" recovers', async () => {
    const descriptors = `${h.server.url}/api/owner/browser-access/descriptors`;
    await h.page.route(descriptors, (route) =>
      route.fulfill({
        status: 502,
        contentType: 'text/html',
        body: '<h1>Bad gateway</h1><script>alert(1)</script>',
      }),
    );
    await h.page
      .locator('diosc-enable-form input[data-collection="notes"][data-function="items_list"]')
      .check();
    await h.page.locator('diosc-enable-form button[type="submit"]').click();
    await waitForAvailability(h.page, 'failure');
    const card = (await h.page.locator('diosc-availability-card section').textContent()) ?? '';
    expect(card).toContain('Browser tools could not be set up');
    expect(card).not.toContain('Bad gateway');
    expect(await h.page.locator('diosc-availability-card h1, diosc-availability-card script').count()).toBe(
      0,
    );
    expect(agent.tools()).toEqual([]);
    await h.page.unroute(descriptors);
    await h.page.locator('diosc-availability-card button', { hasText: 'Try again' }).click();
    await waitForAvailability(h.page, 'registered');
    await expect.poll(() => agent.tools()).toEqual(['collections_list', 'items_list']);
    await h.page.locator('diosc-availability-card button', { hasText: 'Turn off' }).click();
    await waitForAvailability(h.page, 'disabled');
  });

  it('shows "offline" while the browser is offline, and comes back by itself', async () => {
    await enableBrowserTools(h.page, [{ collection: 'inbox', functions: ['items_list', 'item_read'] }]);
    await expect.poll(() => agent.tools()).toEqual(['collections_list', 'item_read', 'items_list']);
    await h.context.setOffline(true);
    await waitForAvailability(h.page, 'offline');
    await expect.poll(() => agent.tools()).toEqual([]);
    await h.context.setOffline(false);
    await waitForAvailability(h.page, 'registered');
    await expect.poll(() => agent.tools()).toEqual(['collections_list', 'item_read', 'items_list']);
  });

  it('drops the registration when another tab signs out and in again; the new session starts disabled', async () => {
    const other = await h.context.newPage();
    await other.goto(`${h.server.url}/collections`);
    await other.locator('diosc-app header button.ghost').click();
    await other.locator('#email').waitFor();
    await expect.poll(() => agent.tools()).toEqual([]);
    await h.page.locator('diosc-sign-in-page [role="status"]').waitFor();
    // The same news arrives twice (BroadcastChannel and the `storage` fallback), sometimes far apart:
    // the second re-read of the session must leave the notice in place.
    await h.page.evaluate(async () => {
      const app = document.querySelector('diosc-app') as HTMLElement & {
        portal: { session: { refresh(): Promise<void> } };
        updateComplete: Promise<boolean>;
      };
      await app.portal.session.refresh();
      await app.updateComplete;
    });
    expect(await h.page.locator('diosc-sign-in-page [role="status"]').count()).toBe(1);
    await other.locator('#email').fill('owner@localhost');
    await other.locator('#password').fill(OWNER_PASSWORD);
    await other.locator('button[type="submit"]').click();
    await other.locator('diosc-side-nav').waitFor();
    // This tab follows the new session (shared cookie) but its tools need a fresh enablement.
    await waitForAvailability(h.page, 'disabled');
    expect(agent.tools()).toEqual([]);
    await other.close();
  });

  it('shows "expired session" when the server ended the session, and removes the tools', async () => {
    await enableBrowserTools(h.page, [{ collection: 'notes', functions: ['items_list', 'item_read'] }]);
    await expect.poll(() => agent.tools()).toEqual(['collections_list', 'item_read', 'items_list']);
    await h.server.store.db
      .updateTable('sessions')
      .set({ expires_at: 0 })
      .where('ended_at', 'is', null)
      .execute();
    // Any request now learns it: the activity log's refresh.
    await h.page.locator('diosc-automation-hub-page button', { hasText: 'Refresh' }).click();
    await waitForAvailability(h.page, 'expired-session');
    await h.page.locator('diosc-app .expired[role="alert"]').waitFor();
    await expect.poll(() => agent.tools()).toEqual([]);
    await h.page.locator('diosc-availability-card button', { hasText: 'Sign in again' }).click();
    await h.page.locator('#email').waitFor();
  });
});

describe('an agent call after the server ended the session', () => {
  let h: PortalHarness;
  let agent: Agent;

  beforeAll(async () => {
    h = await startPortal({ webmcp: true });
    await signIn(h.page, h.server.url, '/automation-hub');
    agent = await attachAgent(h.page);
  });

  afterAll(async () => {
    await agent?.close();
    await h?.close();
  });

  it('is refused with session_expired, and the portal shows the expired session', async () => {
    await enableBrowserTools(h.page, [{ collection: 'inbox', functions: ['items_list'] }]);
    await expect.poll(() => agent.tools()).toEqual(['collections_list', 'items_list']);
    await h.server.store.db
      .updateTable('sessions')
      .set({ expires_at: 0 })
      .where('ended_at', 'is', null)
      .execute();
    const invocation = await agent.invoke('items_list', { collection: 'inbox' });
    const response = await agent.responded(invocation);
    expect(response.status).toBe('Error');
    expect(failureText(response)).toMatch(/session_expired/);
    await waitForAvailability(h.page, 'expired-session');
    await h.page.locator('diosc-app .expired[role="alert"]').waitFor();
    await expect.poll(() => agent.tools()).toEqual([]);
  });
});
