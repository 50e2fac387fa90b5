import type { CDPSession } from 'playwright-core';

/** Buffers CDP events from the start, so a test can wait for one that may already have arrived. */
export function recordEvents(cdp: CDPSession, names: readonly string[]) {
  const seen: { name: string; params: Record<string, unknown> }[] = [];
  const waiters: {
    name: string;
    match: (p: Record<string, unknown>) => boolean;
    resolve: (p: Record<string, unknown>) => void;
  }[] = [];
  for (const name of names) {
    cdp.on(name as 'WebMCP.toolsAdded' as never, (params: Record<string, unknown>) => {
      seen.push({ name, params });
      for (const waiter of [...waiters]) {
        if (waiter.name === name && waiter.match(params)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(params);
        }
      }
    });
  }
  return {
    seen,
    /** The first event of `name` (from now on, or already seen after `since`) that matches. */
    wait(name: string, match: (p: Record<string, unknown>) => boolean = () => true, since = 0) {
      const found = seen.slice(since).find((e) => e.name === name && match(e.params));
      if (found) return Promise.resolve(found.params);
      return new Promise<Record<string, unknown>>((resolve) => waiters.push({ name, match, resolve }));
    },
  };
}
