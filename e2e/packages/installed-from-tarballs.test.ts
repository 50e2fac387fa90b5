import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type HubTestServer, startHubServer } from '@diosc/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIGHLIGHT_ROW, type Step } from '../kit/support/kit-e2e.js';
import { callsReach, lastResult, sequence } from '../kit/support/model-calls.js';
import { ask } from '../kit/support/widget.js';
import { launchChromium } from '../support/chromium.js';
import { createFreshApp, type FreshApp } from './support/fresh-app.js';
import { SCRIPT_PAGE } from './support/script-page.js';
import { type StaticServer, serveStatic } from './support/static-server.js';

// The app's own tools, pinned, each accepting Node 20 (`npm view <name>@<version> engines`).
const APP_TOOLS = { typescript: '5.9.3', vite: '8.3.8' };

let app: FreshApp;
let hub: HubTestServer;
let site: StaticServer;
let browser: Browser;
let publishableKey: string;
const pageErrors: string[] = [];
const holder: { script: Step } = { script: () => ({ text: 'No script for this call.' }) };

beforeAll(async () => {
  app = await createFreshApp(APP_TOOLS);
  app.run('npx', ['vite', 'build']);
  const dist = join(app.dir, 'dist');
  writeFileSync(join(dist, 'script.html'), SCRIPT_PAGE);
  const kitScript = join(app.dir, 'node_modules/@diosc/kit/script');
  site = await serveStatic((path) => {
    if (path === '/') return join(dist, 'index.html');
    if (path.startsWith('/kit/')) return join(kitScript, path.slice('/kit/'.length));
    return /^\/[\w./-]+$/.test(path) && !path.includes('..') ? join(dist, path) : undefined;
  });
  hub = await startHubServer({ script: (call) => holder.script(call) });
  const assistant = await hub.createAssistant({
    name: 'Installed app',
    model: { provider: 'scripted', id: 'test' },
    allowedOrigins: [site.origin],
    browserTools: [HIGHLIGHT_ROW],
  });
  publishableKey = assistant.publishableKey;
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await hub?.close();
  await site?.close();
  app?.remove();
});

async function openPage(path: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on('pageerror', (error) => pageErrors.push(`${path}: ${error.message}`));
  const query = new URLSearchParams({ hub: hub.url, pk: publishableKey });
  await page.goto(`${site.origin}${path}?${query}`);
  await page.locator('diosc-widget textarea').waitFor();
  return page;
}

describe('the packages installed from their tarballs into a fresh app', () => {
  it('install on Node 20 without an engine warning, and carry the built files, not the source', () => {
    expect(app.installOutput).not.toMatch(/EBADENGINE|ERESOLVE|deprecated/i);
    const manifest = (pkg: string) =>
      JSON.parse(app.run('node', ['-p', `JSON.stringify(require('@diosc/${pkg}/package.json'))`]));
    for (const pkg of ['protocol', 'webmcp', 'kit']) {
      expect(manifest(pkg).private).toBeUndefined();
      expect(manifest(pkg).exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    }
  });

  it('type-check against the declarations in the tarballs', () => {
    expect(app.run('npx', ['tsc', '--noEmit', '-p', '.'])).toBe('');
  });

  it('work in Chromium against a real hub: the module import registers a page tool the assistant calls', async () => {
    const base = hub.model.calls.length;
    holder.script = sequence(
      { toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] },
      { text: 'Highlighted.' },
    );
    const page = await openPage('/');
    await ask(page, 'Highlight Darjeeling');
    const next = await callsReach(hub.model.calls, base + 2);
    expect(lastResult(next, 'highlight_row')).toEqual({ type: 'json', value: { highlighted: '42' } });
    expect(await page.locator('tr.is-highlighted').getAttribute('data-id')).toBe('42');
  });

  it('work as the `<script async>` build from the package, replaying the snippet’s queue', async () => {
    const base = hub.model.calls.length;
    holder.script = sequence(
      { toolCalls: [{ toolName: 'highlight_row', input: { id: '7' } }] },
      { text: 'Highlighted.' },
    );
    const page = await openPage('/script.html');
    await ask(page, 'Highlight 7');
    const next = await callsReach(hub.model.calls, base + 2);
    expect(lastResult(next, 'highlight_row')).toEqual({
      type: 'json',
      value: { highlighted: '7', from: 'script' },
    });
  });

  it('threw nothing on any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
