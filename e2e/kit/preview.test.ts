import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeKitDist } from '@diosc/kit/build';
import { type HubTestServer, OWNER_PASSWORD, startHubServer } from '@diosc/server/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { ask } from './support/widget.js';

const RESULTS = fileURLToPath(new URL('../../test-results/', import.meta.url));

describe("the hub's live preview of an assistant, in Debian Chromium", () => {
  let server: HubTestServer;
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    dir = join(RESULTS, `preview-e2e-${process.pid}-${Date.now()}`);
    await writeKitDist(dir);
    server = await startHubServer({
      config: { kitDir: dir },
      script: [{ text: 'Hello from the preview.' }],
      // Allowed origins hold only a shop: the preview's own origin is the hub's.
      assistant: { allowedOrigins: ['https://shop.example'] },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens the widget under its CSP and chats with the assistant', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Signed in as the portal does it: the session cookie is set by the server's answer.
    const signedIn = await page.request.post(`${server.url}/api/owner/session`, {
      headers: { origin: server.url },
      data: { email: 'owner@localhost', password: OWNER_PASSWORD },
    });
    expect(signedIn.status()).toBe(200);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('requestfailed', (request) => problems.push(`${request.url()} ${request.failure()?.errorText}`));
    page.on('response', (answer) => {
      if (answer.status() >= 400) problems.push(`${answer.url()} ${answer.status()}`);
    });
    const response = await page.goto(`${server.url}/api/owner/assistants/${server.assistant.id}/preview`);
    expect(response?.status()).toBe(200);
    await page.locator('diosc-widget textarea').waitFor();
    await ask(page, 'Hello?');
    await page.getByText('Hello from the preview.').waitFor();
    expect(server.model.calls).toHaveLength(1);
    // No console error at all: a CSP refusal (of the kit, its styles, its calls) would be one.
    expect(problems).toEqual([]);
    await context.close();
  });
});
