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
      const answer = (await page.evaluate('window.pageText()')) as { content: string };
      expect(answer.content).toBe(
        'todos\nWhat needs to be done?\nBuy tea\nWalk the dog\n2 items left · All Active\nDouble-click to edit a todo',
      );
    } finally {
      await context.close();
    }
  });
});
