import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.DIOSC_CHROMIUM ?? '/usr/bin/chromium';

/** The flags these machines need: no sandbox as root, no GPU, no network beyond loopback. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Debian's Chromium through playwright-core — never a downloaded browser. Playwright gives every
 * launch a fresh temporary user-data-dir. `webmcp: true` turns on the native WebMCP API;
 * `backForwardCache: true` keeps the back/forward cache, which Playwright turns off by default.
 */
export async function launchChromium(
  options: { webmcp?: boolean; backForwardCache?: boolean } = {},
): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...(options.webmcp ? ['--enable-features=WebMCP'] : [])],
    ...(options.backForwardCache ? { ignoreDefaultArgs: ['--disable-back-forward-cache'] } : {}),
  });
}
