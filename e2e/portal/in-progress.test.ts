import { createCallGate } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBrowserTools } from './support/automation.js';
import { type PortalHarness, signIn, startPortal } from './support/portal-harness.js';
import { type Agent, attachAgent, failureText } from './support/webmcp-agent.js';

/**
 * No success before the result (issue 10, item 4), in Debian Chromium with native WebMCP: the
 * server holds the write it was asked to execute (the app's `holdCall` seam); the owner approves
 * with a real click; until the server answers, the agent's call has not resolved and the portal
 * says "In progress" — then only the actual answer settles it, success or `precondition_failed`.
 */

const gate = createCallGate();
let h: PortalHarness;
let agent: Agent;

const note = (id: string) =>
  h.server.store.db
    .selectFrom('items')
    .select(['content', 'version', 'title'])
    .where('account_id', '=', h.server.accountId)
    .where('collection_id', '=', 'notes')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const dialog = () => h.page.locator('diosc-review-dialog dialog[open]');
/** A toast's text (the region itself has no box of its own). */
const toast = (text: string) => h.page.locator('diosc-toast-region').getByText(text);
const row = (requestId: string, outcome: string) =>
  h.page.locator('diosc-activity-log tr', { hasText: requestId }).locator(`td[data-outcome="${outcome}"]`);

/** The agent asks to replace `item`; the owner approves with a real click while the server holds it. */
async function approvedAndHeld(item: string, requestId: string, body: string) {
  const before = await note(item);
  const invocation = await agent.invoke('item_write', {
    collection: 'notes',
    item,
    requestId,
    ifMatch: String(before.version),
    content: { title: before.title, body },
  });
  await dialog().waitFor();
  const held = gate.next({ channel: 'browser', name: 'item_write' });
  await h.page.click('diosc-review-dialog button.approve');
  await held.reached;
  return { before, invocation, held };
}

describe('no success before the result (native WebMCP)', () => {
  beforeAll(async () => {
    h = await startPortal({ webmcp: true, server: { app: { holdCall: gate.hold } } });
    await signIn(h.page, h.server.url, '/automation-hub');
    agent = await attachAgent(h.page);
    await enableBrowserTools(h.page, [
      { collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] },
    ]);
  });

  afterAll(async () => {
    gate.releaseAll();
    await agent?.close();
    await h?.close();
  });

  it('after approval the call is in progress, not done, until the server answers; then it is done', async () => {
    const requestId = 'portal-progress-0001';
    const { before, invocation, held } = await approvedAndHeld('groceries', requestId, '- only bread');
    await row(requestId, 'in-progress').waitFor();
    expect(await row(requestId, 'in-progress').textContent()).toContain('In progress');
    expect(await dialog().count()).toBe(0);
    // Held inside the server: a moment later still nothing has resolved or been written.
    await h.page.waitForTimeout(400);
    expect(agent.hasResponded(invocation)).toBe(false);
    expect(await note('groceries')).toEqual(before);
    expect(await row(requestId, 'ok').count()).toBe(0);
    expect(await toast('The change was applied').count()).toBe(0);

    held.release();
    const response = await agent.responded(invocation);
    expect(response.status).toBe('Completed');
    expect((await note('groceries')).content).toBe('- only bread');
    await row(requestId, 'ok').waitFor();
    expect(await row(requestId, 'in-progress').count()).toBe(0);
    await toast(`The change was applied (request ${requestId}).`).waitFor();
  });

  it('a refusal the server answers after approval (precondition_failed) is what settles it — never success', async () => {
    const requestId = 'portal-progress-0002';
    const { invocation, held } = await approvedAndHeld('ideas', requestId, 'Replaced by the agent');
    await row(requestId, 'in-progress').waitFor();
    // Someone else saves the item while the agent's write is held.
    const owner = {
      accountId: h.server.accountId,
      actor: `owner:${h.server.accountId}`,
      via: 'owner',
      grant: { kind: 'all' },
    } as const;
    const current = await note('ideas');
    await h.server.app.diosc.core.execute(
      'item_write',
      {
        collection: 'notes',
        item: 'ideas',
        requestId: 'portal-owner-save-1',
        ifMatch: String(current.version),
        content: { body: 'Saved by the owner' },
      },
      owner,
    );
    expect(agent.hasResponded(invocation)).toBe(false);

    held.release();
    const response = await agent.responded(invocation);
    expect(response.status).toBe('Error');
    expect(failureText(response)).toContain('precondition_failed');
    expect((await note('ideas')).content).toBe('Saved by the owner');
    // In words, not the raw code (the code's short name; its sentence is in errors.*).
    await toast('The change was not applied (Changed meanwhile)').waitFor();
    await expect.poll(() => row(requestId, 'in-progress').count()).toBe(0);
    expect(await toast(`request ${requestId}`).count()).toBe(0);
  });
});
