import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForAvailability } from './support/automation.js';
import { type PortalHarness, signIn, startPortal } from './support/portal-harness.js';
import { type Agent, attachAgent } from './support/webmcp-agent.js';

/**
 * The release gate (issue 10, item 2) in the portal: with `DIOSC_BROWSER_TOOLS=off` the Automation
 * hub shows its seventh state — the operator has not turned the feature on, not "unsupported
 * browser" — nothing is registered with the browser's agent, and Connected apps works as ever.
 */

for (const webmcp of [true, false]) {
  describe(`browser tools turned off by the operator (${webmcp ? 'native WebMCP' : 'no WebMCP'})`, () => {
    let h: PortalHarness;
    let agent: Agent;

    beforeAll(async () => {
      h = await startPortal({ webmcp, server: { config: { browserAccess: false } } });
      await signIn(h.page, h.server.url, '/automation-hub');
      agent = await attachAgent(h.page);
    });

    afterAll(async () => {
      await agent?.close();
      await h?.close();
    });

    it('says the operator has not turned it on, offers no enable form and registers nothing', async () => {
      await waitForAvailability(h.page, 'feature-disabled');
      const card = (await h.page.locator('diosc-availability-card section').textContent()) ?? '';
      expect(card).toContain('Browser tools are turned off on this server');
      expect(card).not.toContain('This browser has no built-in agent tools');
      expect(await h.page.locator('diosc-enable-form').count()).toBe(0);
      await h.page.waitForTimeout(300);
      expect(agent.tools()).toEqual([]);
      const rows = await h.server.store.db.selectFrom('app_connections').select('id').execute();
      expect(rows).toEqual([]);
      expect(h.pageErrors).toEqual([]);
    });

    it('leads to Connected apps, which still creates HTTP MCP connections', async () => {
      await h.page.locator('diosc-availability-card a', { hasText: 'Go to Connected apps' }).click();
      await h.page.waitForURL(/\/connected-apps$/);
      await h.page.locator('diosc-connected-apps-page .page-head button.primary').click();
      await h.page.locator('#app-name').fill('Gate test assistant');
      await h.page
        .locator('diosc-connection-form-dialog input[data-collection="notes"][data-function="items_list"]')
        .check();
      await h.page.locator('diosc-connection-form-dialog button[type="submit"]').click();
      await h.page.locator('diosc-token-dialog dialog[open]').waitFor();
      expect(await h.page.locator('#token').inputValue()).toMatch(/^dsc_/);
      const rows = await h.server.store.db.selectFrom('app_connections').select('transport').execute();
      expect(rows).toEqual([{ transport: 'http_mcp' }]);
    });
  });
}
