import { createCallGate, createTestAccount, seedCollection } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBrowserTools, waitForAvailability } from './support/automation.js';
import {
  fillSignIn,
  type PortalHarness,
  signIn,
  startPortal,
  visibleText,
} from './support/portal-harness.js';
import { type Agent, attachAgent, failureText } from './support/webmcp-agent.js';

/**
 * Late results after revocation (issue 10, item 6), the seed's exact case, in Debian Chromium with
 * native WebMCP: the browser's agent has a read and an approved write in flight (held inside the
 * server), the owner signs out and another owner signs in on the same page, then the answers come.
 * Nothing of the first owner reaches the new session's page, activity log or tools.
 */

const gate = createCallGate();
const OTHER = { email: 'other@localhost', password: 'another owner entirely' };
const SECRET = { title: 'Alpha secret plan', body: 'Only the first owner may ever read this.' };
let h: PortalHarness;
let agent: Agent;

describe('late results after sign-out and another owner’s sign-in (native WebMCP)', () => {
  beforeAll(async () => {
    h = await startPortal({ webmcp: true, server: { app: { holdCall: gate.hold } } });
    await createTestAccount(h.server.store, OTHER);
    await seedCollection(
      h.server.store,
      h.server.accountId,
      { id: 'alpha', kind: 'storage', title: 'Alpha' },
      { items: 1, title: () => SECRET.title, body: () => SECRET.body },
    );
    await signIn(h.page, h.server.url, '/automation-hub');
    agent = await attachAgent(h.page);
  });

  afterAll(async () => {
    gate.releaseAll();
    await agent?.close();
    await h?.close();
  });

  it('the old read and write never reach the new owner’s page, activity log or tools', async () => {
    await enableBrowserTools(h.page, [
      { collection: 'alpha', functions: ['items_list', 'item_read'] },
      { collection: 'notes', functions: ['item_write'] },
    ]);
    await expect
      .poll(() => agent.tools())
      .toEqual(['collections_list', 'item_read', 'item_write', 'items_list']);

    // A read, held inside the server once authorized for the first owner.
    const heldRead = gate.next({ channel: 'browser', name: 'item_read' });
    const read = await agent.invoke('item_read', { collection: 'alpha', item: 'item-00000' });
    await heldRead.reached;
    // A write, approved with a real click, held the same way.
    const write = await agent.invoke('item_write', {
      collection: 'notes',
      item: 'late-note',
      requestId: 'portal-late-write-1',
      ifNoneMatch: '*',
      content: { title: SECRET.title, body: SECRET.body },
    });
    await h.page.locator('diosc-review-dialog dialog[open]').waitFor();
    const heldWrite = gate.next({ channel: 'browser', name: 'item_write' });
    await h.page.click('diosc-review-dialog button.approve');
    await heldWrite.reached;

    // Sign-out from the header, then the other owner signs in on the same page.
    await h.page.locator('diosc-app').locator('header button.ghost').click();
    await h.page.locator('#email').waitFor();
    await fillSignIn(h.page, OTHER.email, OTHER.password);
    await waitForAvailability(h.page, 'disabled');
    await expect.poll(() => agent.tools()).toEqual([]);

    heldRead.release();
    heldWrite.release();
    const readAnswer = await agent.responded(read);
    const writeAnswer = await agent.responded(write);
    // The read's data is never sent; the write (accepted before) may have committed: uncertain.
    expect(readAnswer.status).toBe('Error');
    expect(failureText(readAnswer)).toMatch(/session_expired/);
    expect(writeAnswer.status).toBe('Error');
    expect(failureText(writeAnswer)).toMatch(/uncertain/);
    for (const answer of [readAnswer, writeAnswer]) {
      expect(JSON.stringify(answer)).not.toContain(SECRET.body);
      expect(JSON.stringify(answer)).not.toContain(SECRET.title);
    }

    // The new owner's page: signed in as them, tools off, an empty activity log, none of the old data.
    await h.page.waitForTimeout(300);
    const text = await visibleText(h.page);
    expect(text).toContain(OTHER.email);
    expect(text).not.toContain(SECRET.title);
    expect(text).not.toContain(SECRET.body);
    expect(text).not.toContain('portal-late-write-1');
    await h.page.locator('diosc-activity-log', { hasText: 'No browser-tool calls yet.' }).waitFor();
    await waitForAvailability(h.page, 'disabled');
    expect(agent.tools()).toEqual([]);

    // The write stayed in the first owner's account; the second owner's own tools see only theirs.
    const rows = await h.server.store.db
      .selectFrom('items')
      .select(['account_id'])
      .where('id', '=', 'late-note')
      .execute();
    expect(rows).toEqual([{ account_id: h.server.accountId }]);
    await enableBrowserTools(h.page, [{ collection: 'notes', functions: ['items_list'] }]);
    const mine = await agent.responded(await agent.invoke('items_list', { collection: 'notes' }));
    expect(mine.status).toBe('Completed');
    expect(JSON.stringify(mine)).not.toContain('late-note');
    expect(
      failureText(await agent.responded(await agent.invoke('items_list', { collection: 'alpha' }))),
    ).toMatch(/not_granted|not_found/);
  });
});
