import type { KitContext } from '../kit-context.js';

/** How long a freshly loaded page may take to set its adapter before an intent counts as gone. */
export const ADAPTER_GRACE_MS = 3_000;

/** Resolves after the page's `load` and one task, so the host's own start-up code has run. */
export function pageLoaded(): Promise<void> {
  return new Promise((resolve) => {
    const later = () => setTimeout(resolve, 0);
    if (document.readyState === 'complete') later();
    else addEventListener('load', later, { once: true });
  });
}

/**
 * On a page that has just loaded, waits for the host to set its adapter (or the grace period to
 * end), so an interrupt pending from before a reload is not failed as "page changed" only because
 * the app had not finished starting.
 */
export async function whenAdapter(kit: KitContext, graceMs = ADAPTER_GRACE_MS): Promise<void> {
  await pageLoaded();
  if (kit.adapter.get()) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, graceMs);
    const unsubscribe = kit.adapter.subscribe((adapter) => adapter && done());
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}

interface LockManagerLike {
  request(
    name: string,
    options: { ifAvailable: boolean },
    run: (lock: unknown) => Promise<void>,
  ): Promise<void>;
}

/**
 * Runs `work` holding the Web Lock `name` if no other tab of this origin holds it (then it does not
 * run at all). A page that dies releases its locks. Without Web Locks, only the journal guards.
 */
export function withLock(name: string, work: () => Promise<void>): Promise<void> {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  if (!locks) return work();
  return locks.request(name, { ifAvailable: true }, async (lock) => {
    if (lock) await work();
  });
}
