import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';

/**
 * The widget on a page it does not own: the page keeps every pixel the widget does not draw, and
 * the page's CSS does not reach the element the widget lives in, even `!important` and `:focus`
 * rules of the kind real sites have.
 */
let e2e: KitE2E;
beforeAll(async () => {
  e2e = await startKitE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** Where the widget's launcher and panel are drawn, in page coordinates. */
function boxes(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('diosc-widget')!.shadowRoot!;
    const rect = (selector: string) => {
      const box = root.querySelector(selector)!.getBoundingClientRect();
      return { left: box.left, top: box.top, right: box.right, bottom: box.bottom };
    };
    const host = document.querySelector('diosc-widget')!.getBoundingClientRect();
    return {
      launcher: rect('.launcher'),
      panel: rect('.panel'),
      host: { left: host.left, bottom: host.bottom },
    };
  });
}

describe('the widget on a host page', () => {
  it('leaves the page its clicks beside the launcher while the panel is open', async () => {
    const { page } = await e2e.open('/shop');
    const { launcher, panel, host } = await boxes(page);
    // The strip left of the launcher, under the panel: inside the widget's box, drawn by nothing.
    const x = Math.round(panel.left + 24);
    const y = Math.round((launcher.top + launcher.bottom) / 2);
    expect(x).toBeLessThan(launcher.left);
    expect(x).toBeGreaterThanOrEqual(host.left);
    expect(y).toBeGreaterThan(panel.bottom);
    expect(y).toBeLessThan(host.bottom);
    await page.evaluate(
      ({ x, y }) => {
        const todo = document.createElement('button');
        todo.id = 'host-todo';
        todo.textContent = 'Buy tea';
        Object.assign(todo.style, {
          position: 'fixed',
          left: `${x - 20}px`,
          top: `${y - 15}px`,
          width: '60px',
          height: '30px',
          zIndex: '10',
        });
        (window as unknown as { seen: string[] }).seen = [];
        for (const type of ['click', 'dblclick'])
          todo.addEventListener(type, () => (window as unknown as { seen: string[] }).seen.push(type));
        document.body.append(todo);
      },
      { x, y },
    );
    expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.id, { x, y })).toBe(
      'host-todo',
    );
    await page.mouse.dblclick(x, y);
    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual([
      'click',
      'click',
      'dblclick',
    ]);
    // What the widget draws still takes the pointer: the launcher closes the panel.
    await page.mouse.click((launcher.left + launcher.right) / 2, (launcher.top + launcher.bottom) / 2);
    await page.locator('diosc-widget .panel').waitFor({ state: 'detached' });
  });

  it("keeps the page's CSS off the widget's element, focus rules and !important included", async () => {
    const { page } = await e2e.open('/shop');
    const before = await page.locator('diosc-widget').boundingBox();
    await page.addStyleTag({
      content: `
        :focus, :focus-within { box-shadow: 0 0 0 6px hotpink !important; outline: 4px solid hotpink !important; }
        diosc-widget { margin: 40px !important; padding: 30px !important; border: 5px solid red !important;
          opacity: 0.3 !important; filter: blur(2px) !important; transform: translateX(-50px) !important;
          right: auto !important; left: 0 !important; display: block !important; }
        * { background: yellow; }`,
    });
    await page.locator('diosc-widget textarea').focus();
    const style = await page.evaluate(() => {
      const widget = document.querySelector('diosc-widget')!;
      const computed = getComputedStyle(widget);
      return {
        focused: widget.matches(':focus'),
        boxShadow: computed.boxShadow,
        outlineStyle: computed.outlineStyle,
        margin: computed.margin,
        padding: computed.padding,
        borderWidth: computed.borderTopWidth,
        opacity: computed.opacity,
        filter: computed.filter,
        transform: computed.transform,
        display: computed.display,
        background: computed.backgroundColor,
      };
    });
    expect(style).toEqual({
      focused: true,
      boxShadow: 'none',
      outlineStyle: 'none',
      margin: '0px',
      padding: '0px',
      borderWidth: '0px',
      opacity: '1',
      filter: 'none',
      transform: 'none',
      display: 'flex',
      background: 'rgba(0, 0, 0, 0)',
    });
    expect(await page.locator('diosc-widget').boundingBox()).toEqual(before);
  });
});
