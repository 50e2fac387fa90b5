import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIGHLIGHT_ROW, type KitE2E, startKitE2E } from './support/kit-e2e.js';
import { callsReach, lastResult, sequence } from './support/model-calls.js';
import { ask, recordAnswers } from './support/widget.js';

/*
 * Issue 27 item 15a, the kit's side: a raw tool (`diosc('tool', …)`, not an intent) returns a file.
 * The kit uploads it and sends only the descriptor, exactly as for an intent; a malformed emission
 * is an error, never passed on with its bytes.
 */

const EXPORT_REPORT = {
  name: 'export_report',
  description: 'Export the report as CSV.',
  inputSchema: { type: 'object', properties: { malformed: { type: 'boolean' } } },
};
const CSV = 'id,total\n1,10\n2,20\n';
const B64 = Buffer.from(CSV).toString('base64');

let e2e: KitE2E;
beforeAll(async () => {
  e2e = await startKitE2E({
    assistant: { browserTools: [HIGHLIGHT_ROW, EXPORT_REPORT], files: { enabled: true } },
  });
});
afterAll(async () => {
  await e2e?.close();
});

describe('a raw tool’s file in Debian Chromium, through the real hub', () => {
  it('is uploaded and reaches the hub and the model as the descriptor only', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence({ toolCalls: [{ toolName: 'export_report', input: {} }] }, { text: 'Exported.' });
    const { page } = await e2e.open('/shop', { rawfile: '1' });
    const answers = recordAnswers(page);
    await ask(page, 'Export the report');
    const next = await callsReach(calls, base + 2);
    const result = lastResult(next, 'export_report') as { type: string; value: { file: { fileId: string } } };
    const fileId = result.value.file.fileId;
    expect(result).toEqual({
      type: 'json',
      value: {
        exported: true,
        file: {
          fileId,
          filename: 'report.csv',
          format: 'csv',
          downloadUrl: `/api/hub/files/${fileId}`,
          sizeBytes: CSV.length,
        },
      },
    });
    const sent = JSON.stringify(answers);
    const prompt = JSON.stringify(next.prompt);
    for (const leak of ['data:', B64.slice(0, 16), '1,10']) {
      expect(sent).not.toContain(leak);
      expect(prompt).not.toContain(leak);
    }
    expect(await page.evaluate(() => window.shop.runs())).toEqual([{ tool: 'export_report', args: {} }]);
  });

  it('a malformed file field is an error for the model, and its bytes go nowhere', async () => {
    const calls = e2e.server.model.calls;
    const base = calls.length;
    e2e.script = sequence(
      { toolCalls: [{ toolName: 'export_report', input: { malformed: true } }] },
      { text: 'It failed.' },
    );
    const { page } = await e2e.open('/shop', { rawfile: '1' });
    const answers = recordAnswers(page);
    await ask(page, 'Export the report');
    const next = await callsReach(calls, base + 2);
    expect(lastResult(next, 'export_report')).toEqual({
      type: 'error-text',
      value: 'The file could not be delivered: file must be { content, filename, mimeType? }',
    });
    const sent = JSON.stringify(answers);
    const prompt = JSON.stringify(next.prompt);
    for (const leak of ['data:', B64.slice(0, 16)]) {
      expect(sent).not.toContain(leak);
      expect(prompt).not.toContain(leak);
    }
  });
});
