import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableBrowserTools, waitForAvailability } from './support/automation.js';
import { type PortalHarness, screenshot, signIn, startPortal } from './support/portal-harness.js';
import { type Agent, attachAgent, failureText } from './support/webmcp-agent.js';

/**
 * The mutation review form in Debian Chromium with native WebMCP, against the real server: the
 * browser's agent calls `item_write` through CDP, the owner reviews in the portal, and only a real
 * click approves.
 */

const SELECTION = [
  { collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] },
  { collection: 'inbox', functions: ['items_list', 'item_read'] },
];

let h: PortalHarness;
let agent: Agent;

async function note(id: string) {
  return h.server.store.db
    .selectFrom('items')
    .select(['content', 'version', 'title'])
    .where('account_id', '=', h.server.accountId)
    .where('collection_id', '=', 'notes')
    .where('id', '=', id)
    .executeTakeFirst();
}

async function committedReceipts(requestId: string) {
  return h.server.store.db
    .selectFrom('receipts')
    .select(['status'])
    .where('request_id', '=', requestId)
    .execute();
}

function deepFocus() {
  return h.page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active ? `${active.tagName.toLowerCase()}.${active.className.split(' ')[0]}` : null;
  });
}

const dialog = () => h.page.locator('diosc-review-dialog dialog[open]');

async function writeRequest(item: string, requestId: string, body: string) {
  const before = await note(item);
  const invocation = await agent.invoke('item_write', {
    collection: 'notes',
    item,
    requestId,
    ifMatch: String(before!.version),
    content: { title: before!.title, body, contentType: 'text/markdown' },
  });
  await dialog().waitFor();
  return { before: before!, invocation };
}

describe('portal review of browser-tool writes (native WebMCP)', () => {
  beforeAll(async () => {
    h = await startPortal({ webmcp: true });
    await signIn(h.page, h.server.url, '/automation-hub');
    agent = await attachAgent(h.page);
  });

  afterAll(async () => {
    await agent?.close();
    await h?.close();
  });

  it('enables browser tools with an exact selection and registers only what it grants', async () => {
    await waitForAvailability(h.page, 'disabled');
    expect(agent.tools()).toEqual([]);
    await enableBrowserTools(h.page, SELECTION);
    await expect
      .poll(() => agent.tools())
      .toEqual(['collections_list', 'item_read', 'item_write', 'items_list']);
    await expect.poll(() => h.page.locator('diosc-tool-list li').count()).toBe(4);
    const rows = await h.server.store.db
      .selectFrom('app_connections')
      .select(['grant_json', 'revoked_at'])
      .where('transport', '=', 'browser')
      .where('revoked_at', 'is', null)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.grant_json)).toEqual([
      { collection: 'inbox', functions: ['items_list', 'item_read'] },
      { collection: 'notes', functions: ['items_list', 'item_read', 'item_write'] },
    ]);
  });

  it('shows the actual change; a scripted click does not approve; a real click approves and writes once', async () => {
    const body = '- oat milk\n- coffee beans\n- lemons\n- sourdough bread';
    const { before, invocation } = await writeRequest('groceries', 'portal-e2e-groceries-0001', body);

    const text = (await dialog().textContent()) ?? '';
    expect(text).toContain('groceries');
    expect(text).toContain('Notes');
    expect(text).toContain('sourdough bread');
    expect(text).toContain(before.content.split('\n')[0]!);
    await screenshot(h.page, 'review-dialog.png');

    // Script clicks the approve button: the browser fires a *trusted* submit, but the click is not.
    await h.page.evaluate(() => {
      const root = document.querySelector('diosc-app')!.shadowRoot!.querySelector('diosc-review-dialog')!
        .shadowRoot!;
      (root.querySelector('button.approve') as HTMLButtonElement).click();
    });
    await h.page.locator('diosc-review-dialog [role="alert"]').waitFor();
    // Same for requestSubmit with the approve button as submitter.
    await h.page.evaluate(() => {
      const root = document.querySelector('diosc-app')!.shadowRoot!.querySelector('diosc-review-dialog')!
        .shadowRoot!;
      const form = root.querySelector('form')!;
      form.requestSubmit(root.querySelector('button.approve') as HTMLButtonElement);
    });
    expect(await dialog().count()).toBe(1);
    expect(agent.hasResponded(invocation)).toBe(false);
    expect(await note('groceries')).toEqual(before);
    expect(await committedReceipts('portal-e2e-groceries-0001')).toEqual([]);

    await h.page.click('diosc-review-dialog button.approve');
    const response = await agent.responded(invocation);
    expect(response.status).toBe('Completed');
    const after = await note('groceries');
    expect(after!.content).toBe(body);
    expect(after!.version).toBe(before.version + 1);
    expect(await committedReceipts('portal-e2e-groceries-0001')).toEqual([{ status: 'committed' }]);
    const used = await h.server.store.db
      .selectFrom('review_receipts')
      .select('used_at')
      .where('used_at', 'is not', null)
      .execute();
    expect(used).toHaveLength(1);
    expect(await dialog().count()).toBe(0);
  });

  it('reject returns a clear refusal to the agent and changes nothing', async () => {
    const refresh = h.page.locator('diosc-automation-hub-page .activity button');
    await refresh.focus();
    const { before, invocation } = await writeRequest('ideas', 'portal-e2e-ideas-0001', 'Replace all ideas.');
    // Focus moves into the dialog, on its safe choice.
    await expect.poll(() => deepFocus()).toBe('button.reject');
    await h.page.keyboard.press('Enter');
    const response = await agent.responded(invocation);
    expect(response.status).toBe('Error');
    expect(failureText(response)).toMatch(/declined/);
    expect(await note('ideas')).toEqual(before);
    expect(await committedReceipts('portal-e2e-ideas-0001')).toEqual([]);
    // …and back to where it was when the dialog closes.
    await expect.poll(() => deepFocus()).toBe('button.ghost');
  });

  it('approves from the keyboard too (a real key press on the approve button)', async () => {
    const invocation = await agent.invoke('item_write', {
      collection: 'notes',
      item: 'keyboard-note',
      requestId: 'portal-e2e-keyboard-0001',
      ifNoneMatch: '*',
      content: { title: 'Keyboard note', body: 'Approved with Enter.' },
    });
    await dialog().waitFor();
    await expect.poll(() => deepFocus()).toBe('button.reject');
    await h.page.keyboard.press('Tab');
    expect(await deepFocus()).toBe('button.approve');
    await h.page.keyboard.press('Enter');
    expect((await agent.responded(invocation)).status).toBe('Completed');
    expect(await note('keyboard-note')).toMatchObject({ content: 'Approved with Enter.', version: 1 });
  });

  it('a script that moves focus onto Approve does not turn the owner’s next Enter into a confirmed write', async () => {
    const { before, invocation } = await writeRequest(
      'ideas',
      'portal-e2e-ideas-0002',
      'Focused by a script.',
    );
    await expect.poll(() => deepFocus()).toBe('button.reject');

    await h.page.evaluate(() => {
      const root = document.querySelector('diosc-app')!.shadowRoot!.querySelector('diosc-review-dialog')!
        .shadowRoot!;
      root.querySelector<HTMLButtonElement>('button.approve')!.focus();
    });
    expect(await deepFocus()).toBe('button.approve');
    await h.page.keyboard.press('Enter');
    // The refusal is what that Enter produces; an approval would close the form instead.
    const alert = h.page.locator('diosc-review-dialog [role="alert"]');
    await alert.waitFor({ timeout: 10_000 });
    expect(await alert.textContent()).toBe('Approve with a real click or key press on the Approve button.');
    expect(await dialog().count()).toBe(1);
    expect(agent.hasResponded(invocation)).toBe(false);
    expect(await note('ideas')).toEqual(before);
    expect(await committedReceipts('portal-e2e-ideas-0002')).toEqual([]);

    // The owner moves focus themselves (back to Reject and on again), then Enter confirms, once.
    await h.page.keyboard.press('Shift+Tab');
    expect(await deepFocus()).toBe('button.reject');
    await h.page.keyboard.press('Tab');
    expect(await deepFocus()).toBe('button.approve');
    await h.page.keyboard.press('Enter');
    expect((await agent.responded(invocation)).status).toBe('Completed');
    expect(await note('ideas')).toMatchObject({
      content: 'Focused by a script.',
      version: before.version + 1,
    });
    expect(await committedReceipts('portal-e2e-ideas-0002')).toEqual([{ status: 'committed' }]);
  });

  it('a press on Approve released elsewhere arms nothing: the owner’s later Enter on a script’s focus writes nothing', async () => {
    const { before, invocation } = await writeRequest('ideas', 'portal-e2e-ideas-0009', 'Pressed, then not.');
    await expect.poll(() => deepFocus()).toBe('button.reject');
    const approve = dialog().locator('button.approve');
    const box = (await approve.boundingBox())!;
    // Pressed on Approve, dragged off and released: the owner changed their mind, no click.
    await h.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await h.page.mouse.down();
    await h.page.mouse.move(box.x + box.width / 2, box.y - 60);
    await h.page.mouse.up();
    await h.page.keyboard.press('Shift+Tab');
    await h.page.evaluate(() => {
      const root = document.querySelector('diosc-app')!.shadowRoot!.querySelector('diosc-review-dialog')!
        .shadowRoot!;
      root.querySelector<HTMLButtonElement>('button.approve')!.focus();
    });
    await h.page.keyboard.press('Enter');
    const alert = h.page.locator('diosc-review-dialog [role="alert"]');
    await alert.waitFor({ timeout: 10_000 });
    expect(agent.hasResponded(invocation)).toBe(false);
    expect(await note('ideas')).toEqual(before);
    expect(await committedReceipts('portal-e2e-ideas-0009')).toEqual([]);
    // A real click still confirms, once.
    await approve.click();
    expect((await agent.responded(invocation)).status).toBe('Completed');
  });

  it('nothing reachable from the review element confirms; calling the closures it holds decides nothing', async () => {
    const { before, invocation } = await writeRequest(
      'ideas',
      'portal-e2e-ideas-0003',
      'Walked by a script.',
    );
    await expect.poll(() => deepFocus()).toBe('button.reject');

    const found = await h.page.evaluate(async () => {
      const element = document
        .querySelector('diosc-app')!
        .shadowRoot!.querySelector('diosc-review-dialog')! as HTMLElement & {
        portal: { reviews: { claimDecider(): unknown } };
      };
      const root = element.shadowRoot!;
      const button = root.querySelector<HTMLButtonElement>('button.approve')!;
      const form = button.form!;
      const starts: unknown[] = [element, root, ...root.querySelectorAll('*')];
      // Everything reachable through properties (own and inherited) and Lit's template parts —
      // including the public `portal` — without wandering into the rest of the page.
      const seen = new Set<unknown>();
      const functions: ((...args: unknown[]) => unknown)[] = [];
      const suspicious: string[] = [];
      // The third field: whether a closure found there may be called. What hangs off `portal` (the
      // owner API, sign-out) is walked for deciders but not called: that is the owner's session,
      // which same-origin script holds anyway (the stated limit), not a way to confirm a review.
      const queue: [unknown, string, boolean][] = starts.map((each, i) => [each, `start${i}`, true]);
      const portal = element.portal;
      const isNative = (fn: unknown) => Function.prototype.toString.call(fn).includes('[native code]');
      while (queue.length > 0 && seen.size < 50_000) {
        const [value, path, reachedCallable] = queue.shift()!;
        const callable = reachedCallable && value !== portal;
        if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value))
          continue;
        if (value === window || value === document) continue;
        if (value instanceof Node && !starts.includes(value)) continue;
        seen.add(value);
        const keys = new Set<PropertyKey>();
        for (let at: object | null = value; at; at = Object.getPrototypeOf(at)) {
          if (
            at !== value &&
            Object.hasOwn(at, 'constructor') &&
            isNative((at as { constructor: unknown }).constructor)
          )
            break;
          for (const key of Reflect.ownKeys(at)) keys.add(key);
        }
        const own = new Set<PropertyKey>(Reflect.ownKeys(value));
        for (const key of keys) {
          if (key === 'decide' || key === 'settle' || key === 'decider')
            suspicious.push(`${path}.${String(key)}`);
          let inner: unknown;
          try {
            inner = (value as Record<PropertyKey, unknown>)[key];
          } catch {
            continue;
          }
          if (callable && own.has(key) && typeof inner === 'function' && !isNative(inner))
            functions.push(inner as (...args: unknown[]) => unknown);
          if (inner instanceof Map || inner instanceof Set)
            for (const [k, v] of inner instanceof Map ? inner : [...inner].entries())
              queue.push([k, path, callable], [v, path, callable]);
          queue.push([inner, `${path}.${String(key)}`, callable]);
        }
      }
      // Call every closure the form holds with events that claim to be trusted, as an attacker would:
      // several rounds, each event type through every function (arm, click, then submit).
      const fake = (type: string) => ({
        type,
        key: 'Enter',
        isTrusted: true,
        submitter: button,
        target: form,
        currentTarget: form,
        composedPath: () => [button],
        preventDefault() {},
        stopPropagation() {},
      });
      let called = 0;
      for (let round = 0; round < 3; round++)
        for (const type of ['pointerdown', 'keydown', 'click', 'submit'])
          for (const fn of new Set(functions)) {
            // A listener takes the event; one that takes nothing (Reject, Escape) only declines.
            if (fn.length === 0) continue;
            try {
              const result = fn.call(element, fake(type), 0);
              if (result instanceof Promise) result.catch(() => undefined);
              called++;
            } catch {
              // Most functions are not listeners; what matters is what happens after.
            }
          }
      await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
      return {
        suspicious,
        walked: seen.size,
        called,
        claimed: element.portal.reviews.claimDecider(),
        open: root.querySelector('dialog')!.open,
      };
    });
    expect(found.suspicious).toEqual([]);
    expect(found.walked).toBeGreaterThan(100);
    // The one settling capability was handed to the form already; asking again gets nothing.
    expect(found.claimed).toBeNull();
    expect(found.open).toBe(true);
    expect(agent.hasResponded(invocation)).toBe(false);
    expect(await note('ideas')).toEqual(before);
    expect(await committedReceipts('portal-e2e-ideas-0003')).toEqual([]);

    // Still undecided: the owner's own Tab and Enter confirm it, once.
    await h.page.keyboard.press('Tab');
    expect(await deepFocus()).toBe('button.approve');
    await h.page.keyboard.press('Enter');
    expect((await agent.responded(invocation)).status).toBe('Completed');
    expect(await note('ideas')).toMatchObject({
      content: 'Walked by a script.',
      version: before.version + 1,
    });
    expect(await committedReceipts('portal-e2e-ideas-0003')).toEqual([{ status: 'committed' }]);
  });

  it('lists the calls in the activity log with tool, collection, outcome and request ID', async () => {
    await h.page.locator('diosc-activity-log td', { hasText: 'portal-e2e-groceries-0001' }).waitFor();
    const log = (await h.page.locator('diosc-activity-log table').textContent()) ?? '';
    expect(log).toContain('item_write');
    expect(log).toContain('notes');
    expect(log).toContain('portal-e2e-ideas-0001');
    await screenshot(h.page, 'automation-hub.png', { fullPage: true });
  });

  it('a selection change (here: from another tab) cancels an open review; the tools follow the new selection', async () => {
    const { before, invocation } = await writeRequest(
      'groceries',
      'portal-e2e-groceries-0002',
      'Only coffee',
    );
    const since = agent.events.seen.length;
    const other = await h.context.newPage();
    await other.goto(`${h.server.url}/automation-hub`);
    await other
      .locator('diosc-enable-form input[data-collection="inbox"][data-function="items_list"]')
      .uncheck();
    await other
      .locator('diosc-enable-form input[data-collection="inbox"][data-function="item_read"]')
      .uncheck();
    await other.locator('diosc-enable-form button[type="submit"]').click();
    await other.locator('diosc-enable-form button[type="submit"][aria-disabled="true"]').waitFor();

    const response = await agent.responded(invocation);
    expect(response.status).not.toBe('Completed');
    expect(failureText(response)).toMatch(/cancelled|generation_changed/);
    await dialog().waitFor({ state: 'detached' });
    expect(await note('groceries')).toEqual(before);
    expect(await committedReceipts('portal-e2e-groceries-0002')).toEqual([]);
    // Registered afresh here (the adapter registers in catalog order, item_write last), for the new
    // selection: notes only.
    await agent.events.wait(
      'WebMCP.toolsAdded',
      (p) => ((p.tools ?? []) as { name: string }[]).some((tool) => tool.name === 'item_write'),
      since,
    );
    await waitForAvailability(h.page, 'registered');
    await expect
      .poll(() => agent.tools())
      .toEqual(['collections_list', 'item_read', 'item_write', 'items_list']);
    const refused = await agent.invoke('items_list', { collection: 'inbox' });
    expect(failureText(await agent.responded(refused))).toMatch(/not_granted/);
    await other.close();
  });

  it('sign-out (from another tab) while a review is open cancels it and unregisters the tools', async () => {
    const { before, invocation } = await writeRequest('config', 'portal-e2e-config-0001', '{"theme":"dark"}');
    const removedFrom = agent.events.seen.length;
    const other = await h.context.newPage();
    await other.goto(`${h.server.url}/collections`);
    await other.locator('diosc-app').locator('header button.ghost').click();
    await other.locator('#email').waitFor();

    const response = await agent.responded(invocation);
    expect(response.status).not.toBe('Completed');
    // The adapter refuses a call whose registration was revoked by sign-out with the session's code.
    expect(failureText(response)).toMatch(/session_expired|cancelled/);
    await agent.events.wait('WebMCP.toolsRemoved', () => true, removedFrom);
    await expect.poll(() => agent.tools()).toEqual([]);
    expect(await dialog().count()).toBe(0);
    await h.page.locator('#email').waitFor();
    expect(await note('config')).toEqual(before);
    expect(await committedReceipts('portal-e2e-config-0001')).toEqual([]);
    await other.close();
  });
});
