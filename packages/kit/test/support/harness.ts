import { afterEach, vi } from 'vitest';
import { createDiosc, type Diosc } from '../../src/diosc.js';
import { createFakeHub, type FakeHub, type FakeHubOptions } from '../../src/testing/index.js';

export interface Harness {
  diosc: Diosc;
  hub: FakeHub;
  errors: string[];
}

const live: Diosc[] = [];
afterEach(() => {
  for (const each of live.splice(0)) each('destroy');
  localStorage.clear();
  sessionStorage.clear();
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

/** A fresh kit on a fresh fake hub, started; console errors are captured, not printed. */
export function startKit(options: FakeHubOptions & { init?: Record<string, unknown> } = {}): Harness {
  const hub = createFakeHub(options);
  const diosc = createDiosc();
  live.push(diosc);
  const errors: string[] = [];
  vi.spyOn(console, 'error').mockImplementation(
    (...args: unknown[]) => void errors.push(args.map(String).join(' ')),
  );
  diosc('init', { hubUrl: hub.url, publishableKey: hub.publishableKey, fetch: hub.fetch, ...options.init });
  return { diosc, hub, errors };
}

/** Waits until `check` stops throwing (or fails with its last error). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 3_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** The widget's shadow root (and the composer's / dialog's inside it). */
export function widgetRoot(): ShadowRoot {
  const root = document.querySelector('diosc-widget')?.shadowRoot;
  if (!root) throw new Error('the widget is not mounted');
  return root;
}
