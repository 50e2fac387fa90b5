import { readFileSync } from 'node:fs';
import { startTestServer, type TestServer } from '@diosc/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { addFilesPage, bundleFilesApp } from './support/files-page.js';
import { ask, screenshot } from './support/widget.js';

/**
 * Files from tools and the file picker in Chromium, against the fake hub of `@diosc/kit/testing`
 * (the real hub's file endpoint is issue 12; this page is the kit side, whole).
 */
let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  const script = await bundleFilesApp();
  server = await startTestServer({ realClock: true, configure: (app) => addFilesPage(app, script) });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1100, height: 820 },
    acceptDownloads: true,
    colorScheme: 'light',
  });
  const page = await context.newPage();
  await page.goto(`${server.url}/files-test`);
  await page.locator('diosc-widget textarea').waitFor();
  return page;
}

describe('files in Debian Chromium (kit as an ES module, in-page fake hub)', () => {
  it('a tool’s file is uploaded with the session, shown as a chip, downloaded with the session; no bytes go back', async () => {
    const page = await open();
    await ask(page, 'Export the chart');
    const chip = page.locator('diosc-widget [part="file-chip"]');
    await chip.waitFor();
    expect(await chip.textContent()).toContain('chart.png');
    const answer = (await page.evaluate(() => (window as unknown as { answer: unknown }).answer)) as {
      file: { fileId: string };
    };
    expect(answer).toEqual({
      result: {
        success: true,
        data: { width: 1 },
        file: {
          fileId: answer.file.fileId,
          filename: 'chart.png',
          format: 'png',
          downloadUrl: `/api/hub/files/${answer.file.fileId}`,
          sizeBytes: 16,
        },
      },
      file: answer.file,
    });
    const sent = await page.evaluate(() => {
      const hub = (
        window as unknown as {
          fakeHub: {
            requests: { method: string; path: string; headers: Record<string, string>; body: unknown }[];
          };
        }
      ).fakeHub;
      return hub.requests.map((r) => ({
        method: r.method,
        path: r.path,
        auth: r.headers.authorization?.slice(0, 11),
        body: JSON.stringify(r.body ?? null),
      }));
    });
    const upload = sent.find((r) => r.path.endsWith('/files'))!;
    expect(upload.auth).toBe('Bearer vst_');
    expect(JSON.parse(upload.body)).toMatchObject({
      file: { name: 'chart.png', type: 'image/png', size: 16 },
    });
    const answerBody = sent.find((r) => r.path.endsWith('/answer'))!.body;
    expect(answerBody).not.toMatch(/iVBORw0KGgo|137,80,78,71/);

    const [download] = await Promise.all([page.waitForEvent('download'), chip.click()]);
    expect(download.suggestedFilename()).toBe('chart.png');
    expect([...readFileSync((await download.path())!)]).toEqual([
      137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82,
    ]);
    const fetched = await page.evaluate(() =>
      (
        window as unknown as {
          fakeHub: { requests: { method: string; path: string; headers: Record<string, string> }[] };
        }
      ).fakeHub.requests
        .filter((r) => r.method === 'GET' && r.path.startsWith('/api/hub/files/'))
        .map((r) => r.headers.authorization?.slice(0, 11)),
    );
    expect(fetched).toEqual(['Bearer vst_']);
    await screenshot(page, 'kit-widget');
  });

  it('the picker (button, drag and drop) uploads through the same path; the message carries only ids', async () => {
    const page = await open();
    await page
      .locator('diosc-widget input[type="file"]')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('tea notes') });
    await page.evaluate(() => {
      const composer = document.querySelector('diosc-widget')!.shadowRoot!.querySelector('diosc-composer')!
        .shadowRoot!;
      const transfer = new DataTransfer();
      transfer.items.add(new File(['a,b\n1,2\n'], 'table.csv', { type: 'text/csv' }));
      composer
        .querySelector('form')!
        .dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => page.locator('diosc-widget .attachments li.ready').count()).toBe(2);
    await ask(page, 'What do you think?');
    await expect
      .poll(() => page.locator('diosc-widget .message.assistant').last().textContent())
      .toContain('I got 2 file(s).');
    const sent = await page.evaluate(() => {
      const hub = (
        window as unknown as {
          fakeHub: { requests: { path: string; body: unknown }[]; files: Map<string, unknown> };
        }
      ).fakeHub;
      return {
        message: hub.requests.find((r) => r.path.endsWith('/messages'))!.body,
        files: [...hub.files.keys()],
      };
    });
    expect(sent.message).toMatchObject({ text: 'What do you think?', attachments: sent.files });
    expect(await page.locator('diosc-widget .message.user [part="file-chip"]').allTextContents()).toEqual([
      expect.stringContaining('notes.txt'),
      expect.stringContaining('table.csv'),
    ]);
  });
});
