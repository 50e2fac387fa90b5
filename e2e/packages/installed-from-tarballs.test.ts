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
import { SCRIPT_PAGE, STRICT_TOOLS, strictScriptPage } from './support/script-page.js';
import { type StaticServer, serveStatic } from './support/static-server.js';

// What the app itself pins, each accepting Node 20 (`npm view <name>@<version> engines`;
// react-router 8 wants Node 22).
const APP_PACKAGES = {
  dependencies: { react: '19.3.1', 'react-dom': '19.3.1', 'react-router': '7.18.7' },
  devDependencies: {
    '@types/react': '19.3.3',
    '@types/react-dom': '19.3.0',
    typescript: '5.9.3',
    vite: '8.3.8',
  },
};
const NO_INPUT = { type: 'object', properties: {} };

let app: FreshApp;
let hub: HubTestServer;
let site: StaticServer;
let browser: Browser;
let publishableKey: string;
const pageErrors: string[] = [];
const holder: { script: Step } = { script: () => ({ text: 'No script for this call.' }) };

beforeAll(async () => {
  app = await createFreshApp(APP_PACKAGES);
  app.run('npx', ['vite', 'build']);
  const dist = join(app.dir, 'dist');
  writeFileSync(join(dist, 'script.html'), SCRIPT_PAGE);
  const kitScript = join(app.dir, 'node_modules/@diosc/kit/script');
  site = await serveStatic(
    (path) => {
      if (path === '/' || path === '/strict') return join(dist, 'index.html');
      // The React app's routes are all its one page; React Router draws the rest.
      if (path === '/react' || path.startsWith('/react/')) return join(dist, 'react.html');
      if (path.startsWith('/kit/')) return join(kitScript, path.slice('/kit/'.length));
      return /^\/[\w./-]+$/.test(path) && !path.includes('..') ? join(dist, path) : undefined;
    },
    // docs/kit.md's strict policy, with the hub's origin: no inline script, Trusted Types enforced.
    (path): Record<string, string> =>
      path === '/strict' || path === '/strict-script.html'
        ? {
            'content-security-policy': `default-src 'self'; script-src 'self'; connect-src 'self' ${hub.url}; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types lit-html diosc-kit`,
          }
        : {},
  );
  hub = await startHubServer({ script: (call) => holder.script(call) });
  const assistant = await hub.createAssistant({
    name: 'Installed app',
    model: { provider: 'scripted', id: 'test' },
    allowedOrigins: [site.origin],
    browserTools: [
      HIGHLIGHT_ROW,
      { name: 'count_orders', description: 'How many orders there are.', inputSchema: NO_INPUT },
      { name: 'open_report', description: 'Open the report.', inputSchema: NO_INPUT },
    ],
    sitemap: [
      { path: '/react/orders', title: 'Orders' },
      { path: '/react/reports', title: 'Reports' },
    ],
  });
  publishableKey = assistant.publishableKey;
  // The script build started from its tag, the page's tools in a file of its own: no inline script.
  writeFileSync(join(dist, 'strict-script.html'), strictScriptPage(hub.url, publishableKey));
  writeFileSync(join(dist, 'strict-tools.js'), STRICT_TOOLS);
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await hub?.close();
  await site?.close();
  app?.remove();
});

async function openPage(path: string): Promise<Page> {
  const context = await browser.newContext();
  // Every violation the browser reports, from the first byte (CDP's init scripts pass any CSP).
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { violations: seen });
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${path}: ${error.message}`));
  const query = new URLSearchParams({ hub: hub.url, pk: publishableKey });
  await page.goto(`${site.origin}${path}?${query}`);
  await page.locator('diosc-widget textarea').waitFor();
  return page;
}

/** The app's record of every tool run on the page (`src/react/runs.ts`). */
const toolRuns = (page: Page) => page.evaluate(() => (window as unknown as { toolRuns: string[] }).toolRuns);

/** Runs one visitor message through the scripted steps; resolves with the model's last call. */
async function turn(page: Page, steps: Parameters<typeof sequence>) {
  const base = hub.model.calls.length;
  holder.script = sequence(...steps);
  await ask(page, 'Go on');
  return callsReach(hub.model.calls, base + steps.length);
}

describe('the packages installed from their tarballs into a fresh app', () => {
  it('install on Node 20 without an engine warning, and carry the built files, not the source', () => {
    expect(app.installOutput).not.toMatch(/EBADENGINE|ERESOLVE/);
    const manifest = (pkg: string) =>
      JSON.parse(app.run('node', ['-p', `JSON.stringify(require('@diosc/${pkg}/package.json'))`]));
    for (const pkg of ['protocol', 'webmcp', 'kit', 'react']) {
      expect(manifest(pkg).private).toBeUndefined();
      expect(manifest(pkg).exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    }
  });

  it('import in Node without a DOM, as a server render of the app does', () => {
    const imports = [
      "const { diosc } = await import('@diosc/kit');",
      "const react = await import('@diosc/react');",
      "const router = await import('@diosc/react/react-router');",
      'console.log(typeof diosc, typeof react.DioscProvider, typeof router.useReactRouterNavigation);',
    ];
    expect(app.run('node', ['--input-type=module', '-e', imports.join('\n')]).trim()).toBe(
      'function function function',
    );
  });

  it('type-check against the declarations in the tarballs', () => {
    expect(app.run('npx', ['tsc', '--noEmit', '-p', '.'])).toBe('');
    // A whole program's check with skipLibCheck off: slower than the default on two busy cores.
  }, 120_000);
});

describe('@diosc/kit from its tarball, in Chromium against a real hub', () => {
  it('the module import registers a page tool the assistant calls', async () => {
    const page = await openPage('/');
    const last = await turn(page, [
      { toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] },
      { text: '**Highlighted.**' },
    ]);
    expect(lastResult(last, 'highlight_row')).toEqual({ type: 'json', value: { highlighted: '42' } });
    expect(await page.locator('tr.is-highlighted').getAttribute('data-id')).toBe('42');
    // Drawn by the markdown parser, which the app's bundle loads on demand.
    await page.locator('diosc-widget strong', { hasText: 'Highlighted.' }).waitFor();
  });

  it('both builds run under a strict CSP with Trusted Types enforced, with no violation', async () => {
    for (const path of ['/strict', '/strict-script.html']) {
      const page = await openPage(path);
      const last = await turn(page, [
        { toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] },
        { text: '**Highlighted.**' },
      ]);
      expect(lastResult(last, 'highlight_row'), path).toMatchObject({
        type: 'json',
        value: { highlighted: '42' },
      });
      await page.locator('diosc-widget strong', { hasText: 'Highlighted.' }).waitFor();
      expect(
        await page.evaluate(() => (window as unknown as { violations: string[] }).violations),
        path,
      ).toEqual([]);
    }
  });

  it('the package’s `<script async>` build replays the snippet’s queue', async () => {
    const page = await openPage('/script.html');
    const last = await turn(page, [
      { toolCalls: [{ toolName: 'highlight_row', input: { id: '7' } }] },
      { text: '**Highlighted.**' },
    ]);
    expect(lastResult(last, 'highlight_row')).toEqual({
      type: 'json',
      value: { highlighted: '7', from: 'script' },
    });
    // Drawn by the markdown parser, loaded on demand from beside the script in the package.
    await page.locator('diosc-widget strong', { hasText: 'Highlighted.' }).waitFor();
  });
});

describe('@diosc/react from its tarball, in a React Router app under StrictMode', () => {
  it('a tool’s handler sees the current state, and runs once per call', async () => {
    const page = await openPage('/react/orders');
    for (let click = 0; click < 3; click++) await page.getByRole('button', { name: 'Add an order' }).click();
    await expect.poll(() => page.locator('output').textContent()).toBe('3');
    const last = await turn(page, [
      { toolCalls: [{ toolName: 'count_orders', input: {} }] },
      { text: 'Three.' },
    ]);
    expect(lastResult(last, 'count_orders')).toEqual({ type: 'json', value: { count: 3 } });
    expect(await toolRuns(page)).toEqual(['count_orders']);
  });

  it('navigation by the assistant is a client-side route change, and the new route’s tools answer', async () => {
    const page = await openPage('/react/orders');
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const last = await turn(page, [
      { toolCalls: [{ toolName: 'navigate', input: { path: '/react/reports' } }] },
      { toolCalls: [{ toolName: 'open_report', input: {} }] },
      { text: 'Opened.' },
    ]);
    // The answer waited for the new route: its snapshot is the Reports component's adapter's.
    expect(lastResult(last, 'navigate')).toEqual({
      type: 'json',
      value: {
        navigatedTo: '/react/reports',
        page: expect.stringContaining('Data: {"month":"January"}'),
      },
    });
    expect(lastResult(last, 'open_report')).toEqual({ type: 'json', value: { opened: 'January' } });
    expect(new URL(page.url()).pathname).toBe('/react/reports');
    expect(await page.locator('h1').textContent()).toBe('Reports');
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
  });

  it('a tool whose component unmounted on a route change fails fast as vanished and runs nothing', async () => {
    const page = await openPage('/react/orders');
    let routeChanged: () => void = () => {};
    const changed = new Promise<void>((resolve) => (routeChanged = resolve));
    const base = hub.model.calls.length;
    holder.script = sequence(
      async () => {
        await changed;
        return { toolCalls: [{ toolName: 'count_orders', input: {} }] };
      },
      { text: 'It is gone.' },
    );
    await ask(page, 'How many orders?');
    await callsReach(hub.model.calls, base + 1);
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.locator('h1', { hasText: 'Reports' }).waitFor();
    routeChanged();
    const last = await callsReach(hub.model.calls, base + 2);
    expect(lastResult(last, 'count_orders')).toEqual({
      type: 'error-text',
      value: 'browser tool "count_orders" is not registered on this page',
    });
    expect(await toolRuns(page)).toEqual([]);
  });

  it('an adapter intent runs with the current state, and the snapshot follows it', async () => {
    const page = await openPage('/react/reports');
    const last = await turn(page, [
      { toolCalls: [{ toolName: 'browser_choose_month', input: { month: 'March' } }] },
      { toolCalls: [{ toolName: 'browser_choose_month', input: { month: 'May' } }] },
      { text: 'May it is.' },
    ]);
    expect(lastResult(last, 'browser_choose_month')).toEqual({
      type: 'json',
      value: { success: true, data: { from: 'March', to: 'May' } },
    });
    expect(await page.locator('main p').textContent()).toBe('Month: May');
    expect(await toolRuns(page)).toEqual(['choose_month', 'choose_month']);
    const next = await turn(page, [{ text: 'Still May.' }]);
    expect(JSON.stringify(next.prompt)).toContain(String.raw`Data: {\"month\":\"May\"}`);
  });

  it('threw nothing on any page', () => {
    expect(pageErrors).toEqual([]);
  });
});
