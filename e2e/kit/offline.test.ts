import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { callsReach, lastResult, sequence } from './support/model-calls.js';
import { ask } from './support/widget.js';

const TIMED_EXPORT = {
  name: 'timed_export',
  description: 'Export the month (takes a few seconds).',
  inputSchema: { type: 'object', properties: { month: { type: 'integer' } } },
};

let e2e: KitE2E;
beforeAll(async () => {
  e2e = await startKitE2E({ assistant: { browserTools: [TIMED_EXPORT] } });
});
afterAll(async () => {
  await e2e?.close();
});

describe('the network drops while a browser tool runs (Debian Chromium, the real hub)', () => {
  it('delivers the result the page holds once the network is back: the turn ends with it, no reload, run once', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'timed_export', input: { month: 5 } }] },
      { text: 'Exported 12 rows.' },
    );
    const { context, page } = await e2e.open('/shop', { timed: '1' });
    await ask(page, 'Export May');
    await expect.poll(() => page.evaluate(() => window.shop.runs().length)).toBe(1);
    // Offline for 8 s: the 3 s tool finishes meanwhile, and every send of its result fails.
    await context.setOffline(true);
    await page.waitForTimeout(8_000);
    expect(calls.length).toBe(base + 1);
    await context.setOffline(false);
    const next = await callsReach(calls, base + 2);
    expect(lastResult(next, 'timed_export')).toEqual({ type: 'json', value: { exported: true, rows: 12 } });
    await page.locator('diosc-widget .message.assistant', { hasText: 'Exported 12 rows.' }).waitFor();
    expect(await page.evaluate(() => window.shop.runs())).toEqual([
      { tool: 'timed_export', args: { month: 5 } },
    ]);
  }, 60_000);
});
