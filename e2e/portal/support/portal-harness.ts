import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  OWNER_PASSWORD,
  startTestServer,
  type TestServer,
  type TestServerOptions,
} from '@diosc/server/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../support/chromium.js';
import { ensurePortalBuilt } from './portal-build.js';

export { OWNER_PASSWORD };

/** Tests write only under test-results/; `npm run docs:refresh` copies the docs' screenshots from here. */
const SCREENSHOTS = resolve(fileURLToPath(new URL('../../../test-results/screenshots', import.meta.url)));

export interface PortalHarness {
  server: TestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console lines the portal printed for missing catalogue keys. */
  missingKeys: string[];
  /** Uncaught page errors and CSP violations. */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * The built portal served by the real server (wall clock, fresh seeded store) and a Debian Chromium
 * page on it — with native WebMCP when `webmcp` is true, without the flag (unsupported) otherwise.
 */
export async function startPortal(options: {
  webmcp: boolean;
  locale?: string;
  /** More server options (a configuration, the app's `holdCall` seam…); the wall clock always. */
  server?: Omit<TestServerOptions, 'realClock'>;
}): Promise<PortalHarness> {
  await ensurePortalBuilt();
  const server = await startTestServer({ ...options.server, realClock: true });
  const browser = await launchChromium({ webmcp: options.webmcp });
  const context = await browser.newContext({
    viewport: { width: 1360, height: 900 },
    locale: options.locale ?? 'en-US',
    colorScheme: 'light',
  });
  const page = await context.newPage();
  const missingKeys: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (text.startsWith('[i18n] missing key:')) missingKeys.push(text);
    if (/Content Security Policy|Trusted Type/i.test(text)) pageErrors.push(text);
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    server,
    browser,
    context,
    page,
    missingKeys,
    pageErrors,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Signs in through the form, as a person would, and waits for the signed-in frame. */
export async function signIn(page: Page, url: string, path = '/'): Promise<void> {
  await page.goto(`${url}${path}`);
  await fillSignIn(page, 'owner@localhost', OWNER_PASSWORD);
}

/** Fills and submits the sign-in form already on the page (any account), then waits for the frame. */
export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.locator('button[type="submit"]').click();
  await page.locator('diosc-side-nav').waitFor();
}

/** All visible text, through every open shadow root (what a reader of the page would see). */
export function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const walk = (root: Node) => {
      for (const node of Array.from(root.childNodes)) {
        if (node.nodeType === Node.TEXT_NODE) {
          const parent = node.parentElement;
          if (parent && parent.checkVisibility?.() !== false && node.textContent?.trim())
            parts.push(node.textContent.trim());
        } else if (node instanceof Element) {
          if (['SCRIPT', 'STYLE'].includes(node.tagName)) continue;
          if (node.shadowRoot) walk(node.shadowRoot);
          walk(node);
        }
      }
    };
    walk(document.body);
    return parts.join('\n');
  });
}

/** A screenshot for the docs, written to test-results/screenshots/<name> (docs:refresh copies it). */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Passing notices would cover the page; a reader of the docs wants the page itself.
  const toasts = (hidden: boolean) =>
    page.evaluate((value) => {
      const region = document
        .querySelector('diosc-app')
        ?.shadowRoot?.querySelector<HTMLElement>('diosc-toast-region');
      if (region) region.style.visibility = value ? 'hidden' : '';
    }, hidden);
  await toasts(true);
  await page.screenshot({
    path: join(SCREENSHOTS, name),
    animations: 'disabled',
    fullPage: options.fullPage ?? false,
  });
  await toasts(false);
}
