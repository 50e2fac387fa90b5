import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCdpEvents } from '../support/cdp-events.js';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { dialog } from './support/widget.js';

let e2e: KitE2E;
beforeAll(async () => {
  e2e = await startKitE2E({ webmcp: true });
});
afterAll(async () => {
  await e2e?.close();
});

type Responded = { status: string; output?: unknown; errorText?: string };

async function agent(cdp: CDPSession) {
  const events = recordCdpEvents(cdp, ['WebMCP.toolsAdded', 'WebMCP.toolResponded']);
  await cdp.send('WebMCP.enable' as never);
  const expected = [
    'highlight_row',
    'slow_export',
    'browser_apply_changes',
    'browser_rename_catalogue',
    'browser_slow_publish',
    'browser_export_csv',
  ];
  const tools = new Map<string, Record<string, unknown>>();
  while (expected.some((name) => !tools.has(name))) {
    const added = await events.wait('WebMCP.toolsAdded', (p) =>
      (p.tools as { name: string }[]).some((t) => expected.includes(t.name) && !tools.has(t.name)),
    );
    for (const tool of added.tools as Record<string, unknown>[]) tools.set(String(tool.name), tool);
  }
  // The kit replaces its registration whenever the page's tools or intents change, which a loaded
  // machine may let happen after the tools were first seen; a replaced registration refuses with
  // "These tools were replaced; use the current ones", and an agent calls the current ones.
  const invoke = async (toolName: string, input: unknown) => {
    for (let attempt = 1; ; attempt++) {
      const frameId = tools.get(toolName)!.frameId;
      const { invocationId } = (await cdp.send(
        'WebMCP.invokeTool' as never,
        { frameId, toolName, input } as never,
      )) as { invocationId: string };
      const response = (await events.wait(
        'WebMCP.toolResponded',
        (p) => p.invocationId === invocationId,
      )) as Responded;
      if (attempt >= 5 || !JSON.stringify(response).includes('These tools were replaced')) return response;
    }
  };
  return { tools, invoke };
}

const parsed = (output: unknown) => (typeof output === 'string' ? JSON.parse(output) : output);

describe('write once, reach every agent: the kit’s tools in native WebMCP (Chromium, --enable-features=WebMCP)', () => {
  it('registers the declared raw tools and every intent with document.modelContext', async () => {
    const { page } = await e2e.open('/shop', { webmcp: '1' });
    const { tools } = await agent(await page.context().newCDPSession(page));
    expect(tools.get('highlight_row')).toMatchObject({
      description: 'Highlight a row of the products table.',
    });
    expect(tools.get('browser_apply_changes')).toMatchObject({
      description: 'Apply price changes to products.',
      annotations: expect.objectContaining({ consequential: true }),
    });
    expect(tools.get('browser_export_csv')?.annotations).toEqual(
      expect.objectContaining({ consequential: false }),
    );
    // The hub's built-ins stay with the hub.
    expect(tools.has('navigate')).toBe(false);
    expect(tools.has('read_page')).toBe(false);
  });

  it('the browser’s agent runs a raw tool through the kit', async () => {
    const { page } = await e2e.open('/shop', { webmcp: '1' });
    const { invoke } = await agent(await page.context().newCDPSession(page));
    const response = await invoke('highlight_row', { id: '43' });
    expect(response.status).toBe('Completed');
    expect(parsed(response.output)).toEqual({ highlighted: '43' });
    expect(await page.locator('tr[data-id="43"]').getAttribute('class')).toBe('is-highlighted');
  });

  it('an intent with approval goes through the same consensus dialog before its handler runs', async () => {
    const { page } = await e2e.open('/shop', { webmcp: '1' });
    const { invoke } = await agent(await page.context().newCDPSession(page));
    const approved = invoke('browser_apply_changes', { ops: [{ id: '41', price: 6 }] });
    await dialog(page).waitFor();
    expect(await dialog(page).locator('h2').textContent()).toBe('Apply 1 change(s) to the catalogue');
    expect(await page.evaluate(() => window.shop.runs())).toEqual([]);
    await page.getByRole('button', { name: 'Approve' }).click();
    const response = await approved;
    expect(response.status).toBe('Completed');
    expect(parsed(response.output)).toEqual({ success: true, data: { applied: 1 } });
    expect(await page.evaluate(() => window.shop.runs())).toEqual([
      { tool: 'apply_changes', args: { ops: [{ id: '41', price: 6 }] } },
    ]);

    const rejected = invoke('browser_apply_changes', { ops: [{ id: '41', price: 1 }] });
    await dialog(page).waitFor();
    await page.getByRole('button', { name: 'Reject…' }).click();
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    expect(parsed((await rejected).output)).toEqual({ success: false, error: 'Action declined by user' });
    expect(await page.evaluate(() => window.shop.runs())).toHaveLength(1);
  });
});
