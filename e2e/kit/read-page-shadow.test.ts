import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePage } from '../support/bundle-page.js';
import { launchChromium } from '../support/chromium.js';

/**
 * read_page on a page built of web components, the way Lit, Stencil or Shoelace render: the to-dos,
 * the count and the filters live in open shadow roots, some content arrives through slots.
 */
let browser: Browser;
let script: string;
beforeAll(async () => {
  script = await bundlePage(fileURLToPath(new URL('./page/read-page-app.ts', import.meta.url)), 'iife');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const PAGE = `<!doctype html><html><head><title>Todos</title></head><body>
  <h1>todos</h1>
  <todo-app><span slot="count">2 items left</span><span>never slotted</span></todo-app>
  <footer><p>Double-click to edit a todo</p></footer>
  <script>
    customElements.define('todo-item', class extends HTMLElement {
      constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<li><label>' + this.getAttribute('text') + '</label></li>'; }
    });
    customElements.define('todo-app', class extends HTMLElement {
      constructor() {
        super();
        this.attachShadow({ mode: 'open' }).innerHTML =
          '<style>.hidden{display:none}</style><input value="What needs to be done?">' +
          '<ul><todo-item text="Buy tea"></todo-item><todo-item text="Walk the dog"></todo-item></ul>' +
          '<p class="hidden">HIDDEN FILTER</p><p><slot name="count">no count</slot> · <a href="#/all">All</a> <a href="#/active">Active</a></p>';
      }
    });
  </script></body></html>`;

describe('read_page in Chromium on a shadow-DOM page', () => {
  it('reads the shadow roots in place, in document order, with slotted text where its slot is', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.setContent(PAGE);
      await page.addScriptTag({ content: script });
      // All of it fits: nothing says otherwise.
      expect(await page.evaluate('window.pageText()')).toEqual({
        content:
          'todos\nWhat needs to be done?\nBuy tea\nWalk the dog\n2 items left · All Active\nDouble-click to edit a todo',
      });
    } finally {
      await context.close();
    }
  });

  it('says how much there was when it cut, counting what the read would read and nothing else', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.setContent(LONG_PAGE);
      await page.addScriptTag({ content: script });
      const whole = ((await page.evaluate('window.pageText(Infinity)')) as PageText).content;
      expect(whole).toContain('Walk the dog 59');
      expect(whole).toContain('2 items left');
      for (const hidden of ['HIDDEN', 'INVISIBLE', 'TRANSPARENT', 'ARIA', 'SCRIPT', 'NEVER SLOTTED'])
        expect(whole).not.toContain(hidden);
      // Counted to the end: the exact length of the whole text.
      const answer = (await page.evaluate('window.pageText(300)')) as PageText;
      expect(answer).toEqual({ content: expect.any(String), truncated: true, totalChars: whole.length });
      expect(answer.content.length).toBeLessThanOrEqual(301);
      // Out of nodes to count: a lower bound, at most the total, the same each time.
      const bound = (await page.evaluate('window.pageText(300, 40)')) as PageText;
      expect(bound).not.toHaveProperty('totalChars');
      expect(bound.totalCharsAtLeast).toBeGreaterThan(300);
      expect(bound.totalCharsAtLeast).toBeLessThan(whole.length);
      expect(await page.evaluate('window.pageText(300, 40)')).toEqual(bound);
    } finally {
      await context.close();
    }
  });
});

interface PageText {
  content: string;
  truncated?: true;
  totalChars?: number;
  totalCharsAtLeast?: number;
}

/** Sixty items in shadow roots, with hidden text beside each and a slotted count after them. */
const LONG_PAGE = `<!doctype html><html><head><title>Todos</title></head><body>
  <h1>todos</h1>
  <todo-app><span slot="count">2 items left</span><span>NEVER SLOTTED</span></todo-app>
  <footer><p>Double-click to edit a todo</p><p style="opacity:0">TRANSPARENT</p></footer>
  <script>
    customElements.define('todo-item', class extends HTMLElement {
      constructor() {
        super();
        this.attachShadow({ mode: 'open' }).innerHTML = '<li><label>' + this.getAttribute('text') +
          '</label> <span style="visibility:hidden">INVISIBLE</span><span aria-hidden="true">ARIA</span></li>';
      }
    });
    customElements.define('todo-app', class extends HTMLElement {
      constructor() {
        super();
        let items = '';
        for (let i = 0; i < 60; i++) items += '<todo-item text="Walk the dog ' + i + '"></todo-item><p class="hidden">HIDDEN</p>';
        this.attachShadow({ mode: 'open' }).innerHTML =
          '<style>.hidden{display:none}</style><ul>' + items + '</ul><script>SCRIPT</' + 'script>' +
          '<p><slot name="count">no count</slot></p>';
      }
    });
  </script></body></html>`;
