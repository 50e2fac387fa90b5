import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { callsReach, lastResult, sequence } from './support/model-calls.js';
import { ask } from './support/widget.js';

let e2e: KitE2E;
beforeAll(async () => {
  // Uploads are off for a new assistant; this one takes files.
  e2e = await startKitE2E({ assistant: { files: { enabled: true } } });
});
afterAll(async () => {
  await e2e?.close();
});

const CSV = 'id,name,price\n41,Sencha,7\n42,Assam,3\n43,Oolong,9\n';

describe('a file from a tool, through the real hub (Chromium)', () => {
  it('is uploaded, shown as a chip that downloads with the session and survives a reload; the model sees only the descriptor', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'browser_export_csv', input: {} }] },
      { text: 'Here is the price list.' },
    );
    const { page } = await e2e.open();
    const auth: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (/\/api\/hub\/(conversations\/[^/]+\/files|files\/)/.test(request.url()))
        auth.push(request.headers().authorization?.slice(0, 11));
    });
    await ask(page, 'Export the prices');
    const next = await callsReach(calls, base + 2);
    const result = lastResult(next, 'browser_export_csv')!;
    const file = (result.value as { file: { fileId: string } }).file;
    expect(result).toEqual({
      type: 'json',
      value: {
        success: true,
        data: { rows: 3 },
        file: {
          fileId: file.fileId,
          filename: 'prices.csv',
          format: 'csv',
          downloadUrl: `/api/hub/files/${file.fileId}`,
          sizeBytes: CSV.length,
        },
      },
    });
    // Credential Blind: no byte of the file, no base64 of it, no token in anything the model was sent.
    const prompt = JSON.stringify(next.prompt);
    for (const leak of ['41,Sencha,7', Buffer.from(CSV).toString('base64').slice(0, 16), 'vst_'])
      expect(prompt).not.toContain(leak);

    const chip = page.locator('diosc-widget [part="file-chip"]');
    await chip.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), chip.click()]);
    expect(download.suggestedFilename()).toBe('prices.csv');
    expect(readFileSync((await download.path())!, 'utf8')).toBe(CSV);
    expect(auth).toEqual(['Bearer vst_', 'Bearer vst_']);
    // The URL alone is not enough.
    expect((await fetch(`${e2e.hubUrl}/api/hub/files/${file.fileId}`)).status).toBe(401);

    await page.reload();
    await expect
      .poll(() => page.locator('diosc-widget [part="file-chip"]').allTextContents())
      .toEqual([expect.stringContaining('prices.csv')]);
  });
});
