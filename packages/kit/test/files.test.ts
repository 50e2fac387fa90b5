// @vitest-environment happy-dom
import type { InterruptAnswer } from '@diosc/protocol';
import { describe, expect, it, vi } from 'vitest';
import type { IntentFileEmission } from '../src/types.js';
import type { DioscComposer } from '../src/widget/composer.js';
import { abandon, eventually, startKit, widgetRoot } from './support/harness.js';

const CSV = 'id,name\n42,SECRET-ROW-CONTENT\n';

function exporting(
  file: IntentFileEmission | (() => IntentFileEmission),
  assistant?: { files: { enabled: boolean; maxFileBytes: number; allowedTypes: string[] } },
) {
  const answers: InterruptAnswer[] = [];
  const harness = startKit({
    ...(assistant ? { assistant } : {}),
    script: async (turn) => {
      answers.push(await turn.callIntent('export_csv', {}));
      turn.say('Here is your file.');
    },
  });
  harness.diosc('browserAdapter', {
    intents: [
      {
        name: 'export_csv',
        description: 'Export as CSV.',
        schema: { type: 'object' },
        handler: () => ({
          success: true,
          data: { rows: 1 },
          file: typeof file === 'function' ? file() : file,
        }),
      },
    ],
  });
  return { ...harness, answers };
}

describe('files from tools', () => {
  it('uploads through the session, answers the byte-free descriptor, and never sends the bytes back', async () => {
    const { diosc, hub, answers } = exporting({ content: CSV, filename: 'report.csv', mimeType: 'text/csv' });
    await diosc('send', 'export');
    await hub.idle();
    const upload = hub.requests.find((r) => /^\/api\/hub\/conversations\/c_[0-9a-f]+\/files$/.test(r.path))!;
    const interruptId = [...hub.files.values()][0]!.interruptId;
    expect(interruptId).toMatch(/^i_/);
    expect(upload.headers.authorization).toMatch(/^Bearer vst_/);
    expect(upload.body).toEqual({
      interruptId,
      file: { name: 'report.csv', type: 'text/csv', size: CSV.length },
    });
    const stored = [...hub.files.values()][0]!;
    expect(await stored.blob.text()).toBe(CSV);
    const descriptor = {
      fileId: stored.descriptor.fileId,
      filename: 'report.csv',
      format: 'csv',
      downloadUrl: `/api/hub/files/${stored.descriptor.fileId}`,
      sizeBytes: CSV.length,
    };
    expect(answers).toEqual([
      { result: { success: true, data: { rows: 1 }, file: descriptor }, file: descriptor },
    ]);
    const answerBodies = JSON.stringify(
      hub.requests.filter((r) => r.path.includes('/interrupts/')).map((r) => r.body),
    );
    expect(answerBodies).not.toContain('SECRET-ROW-CONTENT');
    expect(answerBodies).not.toContain(btoa(CSV).slice(0, 12));
  });

  it('takes a Blob as it is and decodes a data: URL', async () => {
    const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
    const first = exporting({ content: new Blob([png], { type: 'image/png' }), filename: 'chart.png' });
    await first.diosc('send', 'export');
    await first.hub.idle();
    expect(new Uint8Array(await [...first.hub.files.values()][0]!.blob.arrayBuffer())).toEqual(png);
    first.diosc('destroy');
    const second = exporting({ content: `data:text/plain;base64,${btoa('hello')}`, filename: 'hello.txt' });
    await second.diosc('send', 'export');
    await second.hub.idle();
    const stored = [...second.hub.files.values()][0]!;
    expect([await stored.blob.text(), stored.type]).toEqual(['hello', 'text/plain']);
  });

  it.each([
    [
      'a Blob without a type and no mimeType',
      { content: new Blob(['x']), filename: 'x.bin' },
      'file.mimeType is required for a Blob without a type',
    ],
    [
      'text without a mimeType',
      { content: 'plain', filename: 'a.txt' },
      'file.mimeType is required when file.content is a text string',
    ],
    [
      'a broken data: URL',
      { content: 'data:text/plain;base64,@@@', filename: 'a.txt' },
      'file.content is not a valid data: URL',
    ],
    [
      'no filename',
      { content: 'x', filename: '', mimeType: 'text/plain' },
      'file.filename must be a non-empty string',
    ],
  ] as const)('%s degrades to { success: false } without uploading', async (_name, file, reason) => {
    const { diosc, hub, answers } = exporting(file as IntentFileEmission);
    await diosc('send', 'export');
    await hub.idle();
    expect(answers).toEqual([
      { result: { success: false, error: `The file could not be delivered: ${reason}` } },
    ]);
    expect(
      hub.requests.filter((r) => /^\/api\/hub\/conversations\/c_[0-9a-f]+\/files$/.test(r.path)),
    ).toEqual([]);
  });

  it('an assistant without file permission, or a refused upload, degrades too — nothing throws', async () => {
    const off = exporting(
      { content: CSV, filename: 'r.csv', mimeType: 'text/csv' },
      { files: { enabled: false, maxFileBytes: 1, allowedTypes: [] } },
    );
    await off.diosc('send', 'export');
    await off.hub.idle();
    expect(off.answers).toEqual([
      {
        result: {
          success: false,
          error: 'The file could not be delivered: This assistant does not accept files.',
        },
      },
    ]);
    off.diosc('destroy');
    const big = exporting(
      { content: CSV, filename: 'r.csv', mimeType: 'text/csv' },
      { files: { enabled: true, maxFileBytes: 4, allowedTypes: [] } },
    );
    await big.diosc('send', 'export');
    await big.hub.idle();
    expect(big.answers).toEqual([
      {
        result: {
          success: false,
          error: `The file could not be delivered: r.csv is ${CSV.length} bytes; the limit is 4.`,
        },
      },
    ]);
  });

  it('shows a chip on the assistant message that downloads with the session, also after a reload', async () => {
    const harness = exporting({ content: CSV, filename: 'report.csv', mimeType: 'text/csv' });
    const { diosc, hub } = harness;
    diosc('open');
    await diosc('send', 'export');
    await hub.idle();
    const chip = await eventually(
      () =>
        widgetRoot().querySelector<HTMLButtonElement>('[part="file-chip"]') ??
        Promise.reject(new Error('no chip')),
    );
    expect(chip.textContent).toContain('report.csv');
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:report');
    chip.click();
    await eventually(() => expect(created).toHaveBeenCalledTimes(1));
    const download = hub.requests.find((r) => r.method === 'GET' && r.path.startsWith('/api/hub/files/'))!;
    expect(download.headers.authorization).toMatch(/^Bearer vst_/);
    expect(await (created.mock.calls[0]![0] as Blob).text()).toBe(CSV);
    // The chip is part of the saved message: a reloaded page shows it again.
    abandon(harness);
    startKit({ hub }).diosc('open');
    await eventually(() =>
      expect(widgetRoot().querySelector('[part="file-chip"]')?.textContent).toContain('report.csv'),
    );
  });
});

describe('the widget’s file picker', () => {
  it('uploads an attached file through the same path and sends only its id with the message', async () => {
    const { diosc, hub, kit } = startKit();
    diosc('open');
    const composer = await eventually(
      () =>
        widgetRoot().querySelector<DioscComposer>('diosc-composer') ??
        Promise.reject(new Error('no composer')),
    );
    await composer.attach([new File(['notes'], 'notes.txt', { type: 'text/plain' })]);
    const upload = hub.requests.find((r) => /^\/api\/hub\/conversations\/c_[0-9a-f]+\/files$/.test(r.path))!;
    expect(upload.body).toEqual({
      file: { name: 'notes.txt', type: 'text/plain', size: 5 },
    });
    await composer.updateComplete;
    const box = composer.shadowRoot!.querySelector('textarea')!;
    box.value = 'see attached';
    composer.shadowRoot!.querySelector('form')!.requestSubmit();
    await eventually(() => expect(hub.requests.some((r) => r.path.endsWith('/messages'))).toBe(true));
    const fileId = [...hub.files.keys()][0]!;
    expect(hub.requests.find((r) => r.path.endsWith('/messages'))!.body).toMatchObject({
      text: 'see attached',
      attachments: [fileId],
    });
    await eventually(() =>
      expect(kit.state.get().messages[0]!.files.map((f) => f.filename)).toEqual(['notes.txt']),
    );
  });
});
