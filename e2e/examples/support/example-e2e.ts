import { rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createScriptedModel,
  type ScriptedCall,
  type ScriptedModel,
  type ScriptedStep,
} from '@diosc/server/scripted';
import type { AssistantRecord } from '@diosc/server/testing';
import { createAssistant, startTestServer, type TestServer } from '@diosc/server/testing';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { exampleAssistantInput } from '../../../scripts/examples/example-assistant.js';
import { buildExampleSite } from '../../../scripts/examples/example-site.js';
import { EXAMPLES } from '../../../scripts/examples/examples.js';
import { launchChromium } from '../../support/chromium.js';

/** A port nothing listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const RESULTS = fileURLToPath(new URL('../../../test-results/', import.meta.url));

type Script = (call: ScriptedCall) => ScriptedStep | Promise<ScriptedStep>;

export interface ExampleE2E {
  server: TestServer;
  /** The example's own scripted model, recording every call. */
  model: ScriptedModel;
  assistant: AssistantRecord;
  /** The example's origin (the hub is on another one). */
  origin: string;
  browser: Browser;
  /** Runs before the example's script on every model call (a test may hold a step here). */
  before: (call: ScriptedCall) => Promise<void> | void;
  /**
   * A fresh browser context (its own storage) on `path`, the assistant's panel opened by a click.
   * `problems` collects what must never happen on the page: an uncaught error, a CSP violation.
   */
  open(path?: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }>;
  close(): Promise<void>;
}

/**
 * One worked example as `npm run example` runs it, in a test: its Vite build (into test-results/),
 * its tiny server on its own origin, the real hub with the example's scripted model on a fresh
 * store, the assistant from the example's `assistant.yaml`, and Debian Chromium.
 */
export async function startExampleE2E(name: keyof typeof EXAMPLES): Promise<ExampleE2E> {
  const example = EXAMPLES[name];
  const dist = join(RESULTS, `${name}-e2e-${process.pid}-${Date.now()}`);
  await build({
    configFile: join(example.dir, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir: dist, emptyOutDir: true, sourcemap: false },
  });
  const hooks: { before: ExampleE2E['before'] } = { before: () => {} };
  const script: Script = async (call) => {
    await hooks.before(call);
    return example.script(call);
  };
  const model = createScriptedModel(script, { modelId: example.scriptedModelId });
  const server = await startTestServer({
    realClock: true,
    app: { hub: { sweepIntervalMs: 100, scriptedModels: { [example.scriptedModelId]: model } } },
  });
  let site: FastifyInstance | undefined;
  let browser: Browser | undefined;
  try {
    // The port first: the assistant must allow the page's exact origin.
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const input = await exampleAssistantInput(join(example.dir, 'assistant.yaml'), {
      origin,
      scriptedModelId: example.scriptedModelId,
      env: {},
    });
    const assistant = await createAssistant(server.app.diosc, server.accountId, input);
    site = await buildExampleSite({ dist, hubUrl: server.url, publishableKey: assistant.publishableKey });
    await site.listen({ host: '127.0.0.1', port });
    browser = await launchChromium();
    const contexts: BrowserContext[] = [];
    const opened = browser;
    const openedSite = site;
    return {
      server,
      model,
      assistant,
      origin,
      browser,
      get before() {
        return hooks.before;
      },
      set before(hook) {
        hooks.before = hook;
      },
      async open(path = '/') {
        const context = await opened.newContext({
          viewport: { width: 1440, height: 900 },
          locale: 'en-US',
          colorScheme: 'light',
          acceptDownloads: true,
        });
        contexts.push(context);
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
        await context.exposeFunction('reportViolation', (text: string) => problems.push(`CSP: ${text}`));
        await context.addInitScript(() =>
          document.addEventListener('securitypolicyviolation', (event) =>
            (window as unknown as { reportViolation(text: string): void }).reportViolation(
              `${event.violatedDirective} ${event.blockedURI}`,
            ),
          ),
        );
        await page.goto(`${origin}${path}`);
        await page.locator('diosc-widget .launcher').click();
        await page.locator('diosc-widget textarea').waitFor();
        return { context, page, problems };
      },
      async close() {
        for (const context of contexts) await context.close().catch(() => {});
        await opened.close();
        await openedSite.close();
        await server.close();
        rmSync(dist, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    await site?.close();
    await server.close();
    throw error;
  }
}
