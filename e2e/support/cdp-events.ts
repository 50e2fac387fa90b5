import type { CDPSession } from 'playwright-core';

export interface CdpEvent {
  name: string;
  params: Record<string, unknown>;
}

/** Buffers CDP events from the moment of the call, so a test can wait for one that already arrived. */
export function recordCdpEvents(cdp: CDPSession, names: readonly string[]) {
  const seen: CdpEvent[] = [];
  const waiters: {
    name: string;
    match: (p: Record<string, unknown>) => boolean;
    resolve: (p: Record<string, unknown>) => void;
  }[] = [];
  for (const name of names) {
    cdp.on(name as never, (params: Record<string, unknown>) => {
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
    /** The first event `name` matching `match`, among those seen from index `since` on or still to come. */
    wait(name: string, match: (p: Record<string, unknown>) => boolean = () => true, since = 0) {
      const found = seen.slice(since).find((event) => event.name === name && match(event.params));
      if (found) return Promise.resolve(found.params);
      return new Promise<Record<string, unknown>>((resolve) => waiters.push({ name, match, resolve }));
    },
  };
}
