import { afterEach, vi } from 'vitest';
import { createKit, type Diosc } from '../../src/diosc.js';
import type { KitContext } from '../../src/kit-context.js';
import { createFakeHub, type FakeHub, type FakeHubOptions } from '../../src/testing/index.js';

export interface Harness {
  diosc: Diosc;
  kit: KitContext;
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

/** A kit that is not started yet, with console errors captured (not printed). */
export function newKit(): { diosc: Diosc; kit: KitContext; errors: string[] } {
  const { diosc, kit } = createKit();
  live.push(diosc);
  const errors: string[] = [];
  vi.spyOn(console, 'error').mockImplementation(
    (...args: unknown[]) => void errors.push(args.map(String).join(' ')),
  );
  return { diosc, kit, errors };
}

/**
 * A kit started on a fake hub (a fresh one, or `hub` — the same hub and the same storage is how a
 * test stands for a reload: a second kit that finds what the first one left).
 */
export function startKit(
  options: FakeHubOptions & {
    hub?: FakeHub;
    init?: Record<string, unknown>;
    before?: (diosc: Diosc) => void;
  } = {},
): Harness {
  const hub = options.hub ?? createFakeHub(options);
  const { diosc, kit, errors } = newKit();
  options.before?.(diosc);
  diosc('init', { hubUrl: hub.url, publishableKey: hub.publishableKey, fetch: hub.fetch, ...options.init });
  return { diosc, kit, hub, errors };
}

/** Simulates the page going away mid-flight: the kit stops without finishing anything. */
export function abandon(harness: Harness): void {
  const index = live.indexOf(harness.diosc);
  if (index !== -1) live.splice(index, 1);
  harness.kit.session?.stop();
  harness.kit.widget?.remove();
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
