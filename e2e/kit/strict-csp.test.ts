import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeKitDist } from '@diosc/kit/build';
import { kitAssetsPlugin } from '@diosc/server';
import { type AssistantRecord, type HubTestServer, startHubServer } from '@diosc/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.js';
import { HIGHLIGHT_ROW } from './support/kit-e2e.js';
import { sequence } from './support/model-calls.js';
import { ask } from './support/widget.js';

/**
 * The built kit on pages with a strict Content Security Policy and Trusted Types enforced, as
 * docs/kit.md gives them: no inline script at all (the kit started from its tag's `data-*`), a nonce
 * with `'strict-dynamic'`, and a page that names only its own Trusted Types policy. Each page records
 * every violation the browser reports; the kit's parts (markdown parser, WebMCP bridge) must load
 * with none.
 */
const RESULTS = fileURLToPath(new URL('../../test-results/', import.meta.url));
const NONCE = 'kitNonce8f3a9c';

let server: HubTestServer;
let assistant: AssistantRecord;
let browser: Browser;
let pageOrigin: string;
let kitUrl: string;
const holder: { script: ReturnType<typeof sequence> } = {
  script: () => ({ text: 'No script for this call.' }),
};
const dir = join(RESULTS, `kit-csp-${process.pid}-${Date.now()}`);

/** The page's own script (allowed as 'self'): the command queue, the tool, and `init` when asked. */
function appScript(init: string): string {
  return `window.diosc = window.diosc || function () { (window.diosc.q = window.diosc.q || []).push(arguments); };
diosc('tool', 'highlight_row', async (params) => {
  document.body.dataset.highlighted = params.id;
  return { highlighted: params.id };
});
${init}`;
}

interface CspPage {
  csp: string;
  head: string;
  app?: string;
}

function pages(hub: string, publishableKey: string): Record<string, CspPage> {
  const tagInit = `data-hub-url="${hub}" data-publishable-key="${publishableKey}" data-webmcp="true" data-open="true"`;
  const allowlist = `default-src 'none'; script-src 'self' ${hub}; connect-src ${hub}; style-src 'self'; base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types lit-html diosc-kit`;
  return {
    // No inline script anywhere: the page's own file and the kit's tag.
    tag: {
      csp: allowlist,
      head: `<script src="/csp/tag/app.js"></script><script async src="${kitUrl}" ${tagInit}></script>`,
      app: appScript(''),
    },
    // The snippet inline with a nonce; what the kit adds is trusted through 'strict-dynamic'.
    nonce: {
      csp: `script-src 'nonce-${NONCE}' 'strict-dynamic'; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types lit-html diosc-kit`,
      head: `<script nonce="${NONCE}">${appScript(
        `diosc('init', { hubUrl: ${JSON.stringify(hub)}, publishableKey: ${JSON.stringify(publishableKey)}, webmcp: true, open: true });`,
      )}</script><script nonce="${NONCE}" async src="${kitUrl}"></script>`,
    },
    // A page that names only its own policy, and hands it to the kit.
    'host-policy': {
      csp: `script-src 'self' ${hub}; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types lit-html shop`,
      head: `<script src="/csp/host-policy/app.js"></script><script async src="${kitUrl}"></script>`,
      app: appScript(`const policy = trustedTypes.createPolicy('shop', {
  createScriptURL: (url) => { window.shopPolicyUsed = (window.shopPolicyUsed || 0) + 1; return url; },
});
diosc('init', { hubUrl: ${JSON.stringify(hub)}, publishableKey: ${JSON.stringify(publishableKey)}, webmcp: true, open: true, trustedTypes: policy });`),
    },
    // The control: Trusted Types enforced, the kit's policy not allowed.
    'no-kit-policy': {
      csp: `script-src 'self' ${hub}; object-src 'none'; require-trusted-types-for 'script'; trusted-types lit-html`,
      head: `<script src="/csp/no-kit-policy/app.js"></script><script async src="${kitUrl}" ${tagInit}></script>`,
      app: appScript(''),
    },
  };
}

beforeAll(async () => {
  const manifest = await writeKitDist(dir);
  let served: Record<string, CspPage> = {};
  server = await startHubServer({
    script: (call) => holder.script(call),
    configure: (app) => {
      void app.register(kitAssetsPlugin, { prefix: '/e2e', dir });
      app.get<{ Params: { name: string } }>('/csp/:name', async (request, reply) => {
        const page = served[request.params.name];
        if (!page) return reply.status(404).send();
        return reply
          .header('content-security-policy', page.csp)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>CSP shop</title>${page.head}</head>
<body><main><h1>Tea</h1></main></body></html>`);
      });
      app.get<{ Params: { name: string } }>('/csp/:name/app.js', async (request, reply) =>
        reply
          .header('cache-control', 'no-store')
          .type('text/javascript; charset=utf-8')
          .send(served[request.params.name]?.app ?? ''),
      );
    },
  });
  pageOrigin = server.url.replace('127.0.0.1', 'localhost');
  kitUrl = `${server.url}/e2e/kit/${manifest.script}`;
  assistant = await server.createAssistant({
    name: 'CSP assistant',
    model: { provider: 'scripted', id: 'test' },
    allowedOrigins: [pageOrigin],
    browserTools: [HIGHLIGHT_ROW],
  });
  served = pages(server.url, assistant.publishableKey);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens a CSP page with every violation the browser reports recorded from the first byte. */
async function open(name: string): Promise<Page> {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { violations: seen });
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`.trim()),
    );
  });
  const page = await context.newPage();
  await page.goto(`${pageOrigin}/csp/${name}`);
  await page.locator('diosc-widget textarea').waitFor();
  return page;
}

const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { violations: string[] }).violations);
const bridgeLoaded = (page: Page) =>
  page.evaluate(
    () => typeof (globalThis as Record<symbol, unknown>)[Symbol.for('diosc.webmcp-bridge')] === 'function',
  );

async function turn(page: Page): Promise<void> {
  holder.script = sequence(
    { toolCalls: [{ toolName: 'highlight_row', input: { id: '42' } }] },
    { text: 'Row **42** is highlighted.' },
  );
  await ask(page, 'Highlight the cheapest tea');
  await expect.poll(() => page.evaluate(() => document.body.dataset.highlighted)).toBe('42');
  await expect
    .poll(() => page.locator('diosc-widget .message.assistant .text').last().textContent())
    .toContain('42');
}

/** The reply drawn as markdown: the parser arrived (it may come after the reply). */
const markdownDrawn = (page: Page) =>
  expect.poll(() => page.locator('diosc-widget .message.assistant strong').count()).toBe(1);

describe('the kit under a strict CSP and Trusted Types', () => {
  it('starts from its tag’s data-* with no inline script; its parts load with no violation', async () => {
    const page = await open('tag');
    await turn(page);
    await markdownDrawn(page);
    await expect.poll(() => bridgeLoaded(page)).toBe(true);
    expect(await violations(page)).toEqual([]);
  });

  it('runs from a nonced snippet under strict-dynamic, its parts trusted through the kit', async () => {
    const page = await open('nonce');
    await turn(page);
    await markdownDrawn(page);
    await expect.poll(() => bridgeLoaded(page)).toBe(true);
    expect(await violations(page)).toEqual([]);
  });

  it('loads its parts through the page’s own policy when init is given one', async () => {
    const page = await open('host-policy');
    await turn(page);
    await markdownDrawn(page);
    await expect.poll(() => bridgeLoaded(page)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { shopPolicyUsed: number }).shopPolicyUsed)).toBe(
      2,
    );
    expect(await violations(page)).toEqual([]);
  });

  it('where the page allows no policy of the kit’s, the parts are refused and the reply shows as written', async () => {
    const page = await open('no-kit-policy');
    await turn(page);
    expect(await page.locator('diosc-widget .message.assistant strong').count()).toBe(0);
    expect(await page.locator('diosc-widget .message.assistant .text').last().textContent()).toBe(
      'Row **42** is highlighted.',
    );
    const seen = await violations(page);
    // The kit's policy refused by name, then each part's URL refused at the sink: nothing loaded.
    expect(seen).toEqual([
      'trusted-types trusted-types-policy',
      'require-trusted-types-for trusted-types-sink',
      'require-trusted-types-for trusted-types-sink',
    ]);
    expect(await bridgeLoaded(page)).toBe(false);
  });
});
