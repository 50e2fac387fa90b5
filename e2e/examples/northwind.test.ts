import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callsReach, lastResult } from '../kit/support/model-calls.js';
import { recordAnswers, screenshot } from '../kit/support/widget.js';
import { say } from './support/conversation.js';
import { type ExampleE2E, startExampleE2E } from './support/example-e2e.js';

let e2e: ExampleE2E;
let page: Page;
let problems: string[];
beforeAll(async () => {
  e2e = await startExampleE2E('northwind');
  ({ page, problems } = await e2e.open('/'));
  // Every way a page can move: a test sees if anything leaves the document or rewrites history.
  await page.evaluate(() => {
    const moves: string[] = [];
    for (const name of ['pushState', 'replaceState'] as const) {
      const original = history[name].bind(history);
      history[name] = (state: unknown, unused: string, url?: string | URL | null) => {
        moves.push(String(url));
        original(state, unused, url);
      };
    }
    Object.assign(window, { moves, sameDocument: 'yes' });
  });
});
afterAll(async () => {
  await e2e?.close();
});

const where = () => page.evaluate(() => location.pathname + location.search);
const moves = () => page.evaluate(() => (window as unknown as { moves: string[] }).moves);

describe('Northwind in Debian Chromium: the tutorial’s story, first message to last result', () => {
  it('“show me the cheapest tea”: navigate without a reload, read the list, highlight the row', async () => {
    const base = e2e.model.calls.length;
    expect(await say(page, 'Show me the cheapest tea')).toContain(
      'The cheapest tea is Assam Breakfast at €4.50. I highlighted it in the list',
    );
    const last = await callsReach(e2e.model.calls, base + 4);
    expect(lastResult(last, 'navigate')).toEqual({
      type: 'json',
      value: { navigatedTo: '/products?category=tea&sort=price' },
    });
    expect(JSON.stringify(lastResult(last, 'read_page'))).toContain('data-id=\\"assam\\"');
    expect(lastResult(last, 'highlight_row')).toEqual({ type: 'json', value: { highlighted: 'assam' } });
    expect(await where()).toBe('/products?category=tea&sort=price');
    // The same document: the router moved, the page did not reload.
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: string }).sameDocument)).toBe(
      'yes',
    );
    expect(await moves()).toEqual(['/products?category=tea&sort=price']);
    expect(await page.locator('#products tr.is-highlighted').getAttribute('data-id')).toBe('assam');
    await screenshot(page, 'northwind-cheapest-tea');
  });

  it('“open it”: the product page, and read_page reading the current product', async () => {
    const base = e2e.model.calls.length;
    expect(await say(page, 'Open it')).toBe(
      'Here is what the page says: “Assam Breakfast €4.50 A malty black tea that takes milk well. Brew at 95 °C for four minutes. Origin: Assam, India”',
    );
    const last = await callsReach(e2e.model.calls, base + 3);
    expect(lastResult(last, 'navigate')?.value).toEqual({ navigatedTo: '/products/assam' });
    expect(lastResult(last, 'read_page')?.value).toMatchObject({
      content: expect.stringContaining('Origin: Assam, India'),
    });
    expect(await where()).toBe('/products/assam');
    expect(await page.locator('#product h1').textContent()).toBe('Assam Breakfast');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: string }).sameDocument)).toBe(
      'yes',
    );
  });

  it('“add 2 to the cart”: a raw tool changes the app’s state; the header shows it at once', async () => {
    const base = e2e.model.calls.length;
    expect(await say(page, 'Add 2 to the cart')).toContain(
      'Added 2 × Assam Breakfast to your cart. It now holds 2 item(s), €9.00 in total.',
    );
    const last = await callsReach(e2e.model.calls, base + 3);
    expect(lastResult(last, 'read_page')?.value).toMatchObject({ path: '/products/assam' });
    expect(lastResult(last, 'add_to_cart')?.value).toEqual({
      added: { productId: 'assam', name: 'Assam Breakfast', quantity: 2 },
      inCart: 2,
      cart: { items: 2, total: '€9.00' },
    });
    expect(await page.locator('.cart-link .badge').textContent()).toBe('2');
    await screenshot(page, 'northwind-add-to-cart');
  });

  it('an invalid or off-site path the model asks for never reaches the page', async () => {
    const answers = recordAnswers(page);
    const before = { at: await where(), moves: (await moves()).length };
    const refused = [
      ['/admin', "is not in this assistant's Sitemap"],
      ['/orders/NW-1001', "is not in this assistant's Sitemap"],
      ['https://evil.example/login', 'is a URL with a scheme'],
      ['//evil.example/login', 'starts with //, which would leave the site'],
      ['/products/%2e%2e/admin', 'has a . or .. segment'],
    ];
    for (const [path, reason] of refused) {
      const base = e2e.model.calls.length;
      expect(await say(page, `go to ${path}`)).toContain(
        "I can't go there — the hub refused the path (path_not_in_sitemap)",
      );
      const next = await callsReach(e2e.model.calls, base + 2);
      const result = lastResult(next, 'navigate');
      expect(result?.type).toBe('error-text');
      expect(String(result?.value)).toContain(reason!);
    }
    // Nothing was sent to the page: no interrupt in the hub's event log, no answer from the page,
    // no move of the router, no navigation of the document.
    const interrupts = await e2e.server.store.db
      .selectFrom('hub_events')
      .select('data_json')
      .where('type', '=', 'interrupt')
      .execute();
    for (const [path] of refused)
      expect(interrupts.filter((row) => row.data_json.includes(JSON.stringify(path!)))).toEqual([]);
    expect(answers).toEqual([]);
    expect({ at: await where(), moves: (await moves()).length }).toEqual(before);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: string }).sameDocument)).toBe(
      'yes',
    );
    await screenshot(page, 'northwind-refused-path');
  });

  it('a path the Sitemap allows but no product has lands on the store’s own “not found”, without a reload', async () => {
    expect(await say(page, 'go to /products/no-such-tea')).toBe('Here is /products/no-such-tea.');
    expect(await where()).toBe('/products/no-such-tea');
    expect(await page.locator('main h1').textContent()).toBe('Page not found');
    // `%A0` is no UTF-8 text: the hub refuses it before the page's router ever sees it.
    const refused = await say(page, 'go to /products/%A0');
    expect(refused).toContain('path_not_in_sitemap');
    expect(refused).toContain('not UTF-8 text');
    expect(await where()).toBe('/products/no-such-tea');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: string }).sameDocument)).toBe(
      'yes',
    );
  });

  it('“go to checkout”, and the shopper places the order by hand: the confirmation is the last result', async () => {
    expect(await say(page, 'Go to checkout')).toContain('Here is the checkout.');
    expect(await where()).toBe('/checkout');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.org');
    await page.getByLabel('Street address').fill('12 St James’s Square');
    await page.getByLabel('City').fill('London');
    await page.getByLabel('Postal code').fill('SW1Y 4JH');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(where).toBe('/orders/NW-1001');
    expect(await page.locator('h1').textContent()).toBe('Thank you, Ada Lovelace!');
    expect(await page.locator('.order-lines').textContent()).toContain('2 × Assam Breakfast — €9.00');
    expect(await page.locator('.cart-link .badge').textContent()).toBe('0');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: string }).sameDocument)).toBe(
      'yes',
    );
    await screenshot(page, 'northwind-order-confirmation');
  });

  it('the page ran the whole story under its Content-Security-Policy, with no uncaught error', () => {
    expect(problems).toEqual([]);
  });
});
