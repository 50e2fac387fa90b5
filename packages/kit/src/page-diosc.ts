import { createDiosc, type Diosc } from './diosc.js';
import type { InitOptions } from './types.js';

/** What the snippet leaves on `window.diosc` before the kit loads: a function with a queue. */
interface QueueStub {
  (...args: unknown[]): void;
  q?: unknown[][];
}

const KEY = Symbol.for('diosc.kit');

/**
 * The page's one kit, shared by the `<script async>` build and any module import on the same page
 * (kept on `globalThis` under a `Symbol.for` key, so two bundled copies find each other). Calls the
 * snippet queued before the kit loaded are replayed in order, then `window.diosc` is the real thing.
 * Options from the script tag start the kit first, unless the queue starts it itself.
 */
export function installPageDiosc(fromTag?: InitOptions): Diosc {
  const scope = globalThis as typeof globalThis & { [KEY]?: Diosc; diosc?: QueueStub | Diosc };
  const existing = scope[KEY];
  if (existing) return existing;
  const real = createDiosc();
  scope[KEY] = real;
  const stub = scope.diosc as QueueStub | undefined;
  const queued = typeof stub === 'function' && Array.isArray(stub.q) ? stub.q : [];
  scope.diosc = real;
  const run = real as (...args: unknown[]) => unknown;
  if (fromTag && !queued.some((call) => call[0] === 'init')) run('init', fromTag);
  for (const call of queued) run(...call);
  return real;
}
