import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { callsReach, lastResult, sequence } from './support/model-calls.js';
import { ask } from './support/widget.js';

let e2e: KitE2E;
beforeAll(async () => {
  e2e = await startKitE2E();
});
afterAll(async () => {
  await e2e?.close();
});

describe('the kit in Debian Chromium against the real hub: built-ins and raw tools', () => {
  it('the markdown parser is its own pinned script: if it cannot load, the reply shows as written', async () => {
    e2e.script = sequence({ text: 'Row **42** is *highlighted*.' });
    const blocked: string[] = [];
    const { page } = await e2e.open('/shop', {}, (context) =>
      context.route(/\/kit\/diosc-kit-markdown\.[0-9a-f]{12}\.js$/, (route) => {
        blocked.push(route.request().url());
        return route.abort();
      }),
    );
    await ask(page, 'Which row?');
    const reply = page.locator('diosc-widget .message.assistant .text');
    await expect.poll(() => reply.textContent()).toBe('Row **42** is *highlighted*.');
    expect(await reply.locator('strong, em').count()).toBe(0);
    expect(blocked).toHaveLength(1);
  });

  it('a raw tool runs in the page and the model reads its result; the widget shows the reply', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] },
      { text: 'Row **42** is highlighted.' },
    );
    const { page } = await e2e.open();
    await ask(page, 'Highlight the cheapest tea');
    const second = await callsReach(calls, base + 2);
    expect(lastResult(second, 'highlight_row')).toEqual({ type: 'json', value: { highlighted: '42' } });
    expect(await page.locator('tr[data-id="42"]').getAttribute('class')).toBe('is-highlighted');
    await expect.poll(() => page.locator('diosc-widget .message.assistant strong').textContent()).toBe('42');
    expect(await page.evaluate(() => window.shop.runs())).toEqual([
      { tool: 'highlight_row', args: { id: '42' } },
    ]);
    // The page sent only the result upstream.
    expect(calls[base]!.tools).toEqual(
      expect.arrayContaining(['highlight_row', 'read_page', 'navigate', 'browser_apply_changes']),
    );
  });

  it('read_page returns the visible text only, and an element by selector', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'read_page', input: {} }] },
      { toolCalls: [{ toolName: 'read_page', input: { selector: 'tr[data-id="41"]' } }] },
      { text: 'Read it.' },
    );
    const { page } = await e2e.open();
    await ask(page, 'What is on this page?');
    const whole = lastResult(await callsReach(calls, base + 2), 'read_page')!.value as Record<string, string>;
    expect(whole).toMatchObject({
      url: expect.stringContaining('/shop?'),
      path: expect.stringMatching(/^\/shop\?/),
      title: 'Northwind tea shop',
    });
    expect(whole.content).toContain('Tea catalogue');
    expect(whole.content).toContain('Assam');
    expect(whole.content).toContain('green tea');
    for (const hidden of [
      'HIDDEN-ATTRIBUTE',
      'DISPLAY-NONE',
      'VISIBILITY-HIDDEN',
      'ARIA-HIDDEN',
      'SVG-TEXT',
      'IFRAME-TEXT',
      'PASSWORD-VALUE',
      'SCRIPT-TEXT',
      'STYLE-TEXT',
      'NOSCRIPT-TEXT',
      'Assistant',
      'Message to the assistant',
    ])
      expect(whole.content).not.toContain(hidden);
    const element = lastResult(await callsReach(calls, base + 3), 'read_page')!.value;
    expect(element).toEqual({
      content: 'Sencha7 €',
      html: '<tr data-id="41"><td>Sencha</td><td>7 €</td></tr>',
    });
  });

  it('navigate with a SPA handler: no reload, and the new view’s intents are the model’s tools in the same turn', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'navigate', input: { path: '/shop/products/42' } }] },
      { text: 'Here it is.' },
    );
    const { page } = await e2e.open('/shop', { spa: '1' });
    await page.evaluate(() => Object.assign(window, { marker: 'same document' }));
    await ask(page, 'Show me Assam');
    const second = await callsReach(calls, base + 2);
    // The post-navigation snapshot rode back on the result.
    expect(lastResult(second, 'navigate')).toEqual({
      type: 'json',
      value: { navigatedTo: '/shop/products/42', page: expect.stringContaining('Description: One product') },
    });
    expect(second.tools).toContain('browser_add_to_cart');
    expect(second.tools).not.toContain('browser_apply_changes');
    expect(
      await page.evaluate(() => [location.pathname, (window as unknown as { marker?: string }).marker]),
    ).toEqual(['/shop/products/42', 'same document']);
  });

  it('navigate without a handler falls back to a full page load, answered by the next page’s kit', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'navigate', input: { path: '/shop/products/43' } }] },
      { text: 'Here is Oolong.' },
    );
    const { page } = await e2e.open('/shop');
    await page.evaluate(() => Object.assign(window, { marker: 'old document' }));
    await ask(page, 'Show me Oolong');
    const second = await callsReach(calls, base + 2);
    // Answered from the new page, with the new page's snapshot.
    expect(lastResult(second, 'navigate')).toEqual({
      type: 'json',
      value: { navigatedTo: '/shop/products/43', page: expect.stringContaining('OolongPrice: 9 €') },
    });
    expect(second.tools).toContain('browser_add_to_cart');
    expect(
      await page.evaluate(() => [
        location.pathname,
        (window as unknown as { marker?: string }).marker ?? null,
      ]),
    ).toEqual(['/shop/products/43', null]);
    // The conversation carried over: the reply lands in the new page's widget.
    await expect
      .poll(() => page.locator('diosc-widget .message.assistant').last().textContent())
      .toContain('Here is Oolong.');
  });
});
