import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { callsReach, sequence } from './support/model-calls.js';
import { ask, dialog, focusedInDialog, tabTo } from './support/widget.js';

/*
 * Issue 27 item 13, from the page's side: a script on the host page (same origin as the widget)
 * tries to approve an intent through the kit — by walking what the element exposes, or by moving
 * focus onto Approve so that the person's next Enter approves. Neither may decide; a real Tab and
 * Enter still does.
 */

let e2e: KitE2E;
beforeAll(async () => {
  e2e = await startKitE2E();
});
afterAll(async () => {
  await e2e?.close();
});

const APPLY = { toolName: 'browser_apply_changes', input: { ops: [{ id: '42', price: 2 }] } };

/** A fresh page whose assistant asks to apply a change: the dialog is open, nothing decided. */
async function openApproval() {
  const calls = e2e.server.model.calls;
  const base = calls.length;
  e2e.script = sequence({ toolCalls: [APPLY] }, { text: 'Applied.' });
  const { page } = await e2e.open();
  await ask(page, 'Make Assam cheaper');
  await dialog(page).waitFor();
  return { page, calls, base };
}

/** What a page script can do: move focus onto Approve. */
function scriptFocusesApprove(page: Page): Promise<void> {
  return page.evaluate(() => {
    const root = document.querySelector('diosc-widget')!.shadowRoot!.querySelector('diosc-consensus-dialog')!
      .shadowRoot!;
    root.querySelector<HTMLButtonElement>('button[type="submit"]')!.focus();
  });
}

/** A press on Approve, dragged off and released on the dialog's heading: no click. */
async function pressApproveAndDragOff(page: Page): Promise<void> {
  const box = (await dialog(page).locator('button[type="submit"]').boundingBox())!;
  const heading = (await dialog(page).locator('h2').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(heading.x + 4, heading.y + 4);
  await page.mouse.up();
}

describe('approving from the page’s side in Debian Chromium', () => {
  it('nothing reachable from the element leads to the kit or a decision; calling what is reachable decides nothing', async () => {
    const { page, calls, base } = await openApproval();

    const found = await page.evaluate(async () => {
      const widget = document.querySelector('diosc-widget') as HTMLElement & Record<string, unknown>;
      const dialogElement = widget.shadowRoot!.querySelector('diosc-consensus-dialog') as HTMLElement & {
        updateComplete: Promise<unknown>;
      };
      const root = dialogElement.shadowRoot!;
      const button = root.querySelector<HTMLButtonElement>('button[type="submit"]')!;
      const form = button.form!;
      const inDialog: unknown[] = [dialogElement, root, ...root.querySelectorAll('*')];
      const starts: unknown[] = [widget, widget.shadowRoot, ...inDialog];
      for (const element of widget.shadowRoot!.querySelectorAll('*'))
        starts.push(element, element.shadowRoot);
      // Everything reachable through properties (own and inherited) and Lit's template parts,
      // without wandering into the rest of the page.
      const seen = new Set<unknown>();
      const functions: ((...args: unknown[]) => unknown)[] = [];
      const suspicious: string[] = [];
      const queue: [unknown, string, boolean][] = starts.map((each, i) => [
        each,
        `start${i}`,
        inDialog.includes(each),
      ]);
      const isNative = (fn: unknown) => Function.prototype.toString.call(fn).includes('[native code]');
      while (queue.length > 0 && seen.size < 50_000) {
        const [value, path, fromDialog] = queue.shift()!;
        if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value))
          continue;
        if (value === window || value === document) continue;
        if (value instanceof Node && !starts.includes(value)) continue;
        seen.add(value);
        const keys = new Set<PropertyKey>();
        // Own keys and the keys of our classes' prototypes; the browser's built-in prototypes
        // (HTMLElement, Object, Map…) lead nowhere of the kit's and are skipped.
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
          if (key === 'decide' || key === 'consensus' || key === 'kit')
            suspicious.push(`${path}.${String(key)}`);
          let inner: unknown;
          try {
            inner = (value as Record<PropertyKey, unknown>)[key];
          } catch {
            continue;
          }
          // Closures held as values (listeners in Lit's parts, say), not the classes' own methods.
          if (fromDialog && own.has(key) && typeof inner === 'function' && !isNative(inner))
            functions.push(inner as (...args: unknown[]) => unknown);
          if (inner instanceof Map || inner instanceof Set)
            for (const [k, v] of inner instanceof Map ? inner : [...inner].entries())
              queue.push([k, path, fromDialog], [v, path, fromDialog]);
          queue.push([inner, `${path}.${String(key)}`, fromDialog]);
        }
      }
      // Call every reachable function with events that claim to be trusted, as an attacker would.
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
      // Several rounds, each event type through every function, so that the order in which
      // listeners were found does not matter (arm, click, then submit).
      let called = 0;
      for (let round = 0; round < 3; round++)
        for (const type of ['pointerdown', 'keydown', 'click', 'submit'])
          for (const fn of new Set(functions)) {
            // A listener takes the event; a closure that takes nothing (a mode switch) would only
            // reset what the others armed.
            if (fn.length === 0) continue;
            try {
              const result = fn.call(dialogElement, fake(type), 0);
              if (result instanceof Promise) result.catch(() => undefined);
              called++;
            } catch {
              // Most functions are not listeners; what matters is what happens after.
            }
          }
      await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
      return {
        suspicious,
        kit: widget.kit,
        called,
        open: root.querySelector('dialog')!.open,
      };
    });
    expect(found.suspicious).toEqual([]);
    expect(found.kit).toBeUndefined();
    expect(found.called).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.shop.runs())).toEqual([]);
    expect(calls.length).toBe(base + 1);

    // A listener called with a fake event may have hidden the dialog (Escape's); it decided nothing.
    if (!found.open) await page.locator('diosc-widget .approvals button').click();

    // The request is still undecided: the person's own Tab and Enter approve it, once.
    await tabTo(page, 'Approve');
    await page.keyboard.press('Enter');
    await callsReach(calls, base + 2);
    expect(await page.evaluate(() => window.shop.runs())).toHaveLength(1);
  });

  it('a script that moves focus onto Approve does not turn the person’s next Enter into an approval', async () => {
    const { page, calls, base } = await openApproval();
    expect(await focusedInDialog(page)).toBe('Reject…');

    await scriptFocusesApprove(page);
    expect(await focusedInDialog(page)).toBe('Approve');
    await page.keyboard.press('Enter');
    // The refusal is what that Enter produces; an approval would close the dialog instead.
    const alert = dialog(page).locator('[role="alert"]');
    await alert.waitFor({ timeout: 10_000 });
    expect(await alert.textContent()).toBe('Only a real click, tap or key press on a button can decide.');
    expect(await dialog(page).isVisible()).toBe(true);
    expect(await page.evaluate(() => window.shop.runs())).toEqual([]);
    expect(calls.length).toBe(base + 1);

    // The person moves focus themselves (away and back), then Enter approves.
    await tabTo(page, 'Edit', 'Shift+Tab');
    await tabTo(page, 'Approve');
    await page.keyboard.press('Enter');
    await callsReach(calls, base + 2);
    expect(await page.evaluate(() => window.shop.runs())).toHaveLength(1);
  });

  it('a Tab the page swallowed arms nothing: a script’s focus after it is still no one’s', async () => {
    const { page, calls, base } = await openApproval();
    // The page stops the person's Tab before it moves focus (it may: it sees the key first).
    await page.evaluate(() => {
      window.addEventListener('keydown', (event) => event.key === 'Tab' && event.preventDefault(), true);
    });
    const before = await focusedInDialog(page);
    await page.keyboard.press('Tab');
    expect(await focusedInDialog(page)).toBe(before);
    await scriptFocusesApprove(page);
    expect(await focusedInDialog(page)).toBe('Approve');
    await page.keyboard.press('Enter');
    const alert = dialog(page).locator('[role="alert"]');
    await alert.waitFor({ timeout: 10_000 });
    expect(await alert.textContent()).toBe('Only a real click, tap or key press on a button can decide.');
    expect(await page.evaluate(() => window.shop.runs())).toEqual([]);
    expect(calls.length).toBe(base + 1);
  });

  it('a press on Approve released elsewhere arms nothing: a later Enter on focus a script put there is refused', async () => {
    const { page, calls, base } = await openApproval();
    const approve = dialog(page).locator('button[type="submit"]');
    // Pressed on Approve, dragged off, released on the heading: no click, focus stays on Approve.
    await pressApproveAndDragOff(page);
    expect(await focusedInDialog(page)).toBe('Approve');
    // The person moves on; then a script puts focus back on the button they pressed before.
    await tabTo(page, 'Edit', 'Shift+Tab');
    await scriptFocusesApprove(page);
    await page.keyboard.press('Enter');
    const alert = dialog(page).locator('[role="alert"]');
    await alert.waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => window.shop.runs())).toEqual([]);

    // The person's own click on Approve decides.
    await approve.click();
    await callsReach(calls, base + 2);
    expect(await page.evaluate(() => window.shop.runs())).toHaveLength(1);
  });

  it('focus the person’s own press put on Approve is theirs: released off it, their Enter approves', async () => {
    const { page, calls, base } = await openApproval();
    expect(await focusedInDialog(page)).toBe('Reject…');
    await pressApproveAndDragOff(page);
    expect(await focusedInDialog(page)).toBe('Approve');
    await page.keyboard.press('Enter');
    await callsReach(calls, base + 2);
    expect(await page.evaluate(() => window.shop.runs())).toHaveLength(1);
  });
});
