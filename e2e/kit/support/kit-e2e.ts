import { rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeKitDist } from '@diosc/kit/build';
import { kitAssetsPlugin } from '@diosc/server';
import {
  type AssistantRecord,
  type HubOptions,
  type HubTestServer,
  type ScriptedCall,
  type ScriptedStep,
  startHubServer,
} from '@diosc/server/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../support/chromium.js';
import { addShopPage, bundleShopApp } from './shop-page.js';

const RESULTS = fileURLToPath(new URL('../../../test-results/', import.meta.url));

export const HIGHLIGHT_ROW = {
  name: 'highlight_row',
  description: 'Highlight a row of the products table.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['id'],
    properties: { id: { type: 'string' } },
  },
};
const SLOW_EXPORT = {
  name: 'slow_export',
  description: 'Export the month (slow).',
  inputSchema: { type: 'object', properties: { month: { type: 'integer' } } },
};

export type Step = (call: ScriptedCall) => ScriptedStep | Promise<ScriptedStep>;

export interface KitE2E {
  server: HubTestServer;
  browser: Browser;
  assistant: AssistantRecord;
  hubUrl: string;
  /** The shop's origin: `localhost` where the hub is `127.0.0.1`, so every hub call is cross-origin. */
  pageOrigin: string;
  /** What the scripted model does on its next calls; set it per test. */
  script: Step;
  /** A fresh browser context on the shop (its own storage), with the widget mounted. */
  open(
    path?: string,
    params?: Record<string, string>,
    /** Runs on the new context before the page loads (to route or block a request, say). */
    prepare?: (context: BrowserContext) => Promise<unknown>,
  ): Promise<{ context: BrowserContext; page: Page }>;
  /** Cuts every open event-stream connection at the socket, as a network drop would. */
  dropEventStreams(): number;
  close(): Promise<void>;
}

/**
 * The real hub (scripted model, wall clock, fresh store) serving the freshly built kit, the shop page
 * on a second origin, an assistant that allows it, and Debian Chromium.
 */
export async function startKitE2E(
  options: { webmcp?: boolean; assistant?: Record<string, unknown>; hub?: HubOptions } = {},
): Promise<KitE2E> {
  const dir = join(RESULTS, `kit-e2e-${process.pid}-${Date.now()}`);
  const manifest = await writeKitDist(dir);
  const appScript = await bundleShopApp();
  const streams = new Set<Socket>();
  const holder: { script: Step } = { script: () => ({ text: 'No script for this call.' }) };
  const server = await startHubServer({
    script: (call) => holder.script(call),
    hub: { sweepIntervalMs: 100, ...options.hub },
    configure: (app) => {
      const hubUrl = app.diosc.config.publicOrigin;
      void app.register(kitAssetsPlugin, { prefix: '/e2e', dir });
      addShopPage(app, appScript, {
        src: `${hubUrl}/e2e/kit/${manifest.immutableScript}`,
        integrity: manifest.integrity.script,
      });
      app.server.on('request', (request) => {
        if (request.url?.includes('/events')) streams.add(request.socket);
      });
    },
  });
  const hubUrl = server.url;
  const pageOrigin = hubUrl.replace('127.0.0.1', 'localhost');
  const assistant = await server.createAssistant({
    name: 'Northwind assistant',
    model: { provider: 'scripted', id: 'test' },
    allowedOrigins: [pageOrigin],
    browserTools: [HIGHLIGHT_ROW, SLOW_EXPORT],
    sitemap: [
      { path: '/shop', title: 'Catalogue' },
      { path: '/shop/products/:id', title: 'A product' },
    ],
    ...options.assistant,
  });
  const browser = await launchChromium({ webmcp: options.webmcp });
  const contexts: BrowserContext[] = [];
  const harness: KitE2E = {
    server,
    browser,
    assistant,
    hubUrl,
    pageOrigin,
    get script() {
      return holder.script;
    },
    set script(step: Step) {
      holder.script = step;
    },
    async open(path = '/shop', params = {}, prepare) {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 860 },
        locale: 'en-US',
        colorScheme: 'light',
      });
      contexts.push(context);
      await prepare?.(context);
      const page = await context.newPage();
      const query = new URLSearchParams({ hub: hubUrl, pk: assistant.publishableKey, ...params });
      await page.goto(`${pageOrigin}${path}?${query}`);
      await page.locator('diosc-widget textarea').waitFor();
      return { context, page };
    },
    dropEventStreams() {
      const open = [...streams].filter((socket) => !socket.destroyed);
      for (const socket of open) socket.destroy();
      streams.clear();
      return open.length;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}
