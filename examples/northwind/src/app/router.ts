/** Where the app is: the route pattern that matched (or null), its parameters and the query. */
export interface Location {
  path: string;
  pattern: string | null;
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface Router {
  current(): Location;
  /**
   * Shows `path` without a reload: History API, then every listener (which render the view).
   * Resolves once the new view is on screen — what the kit's navigation handler waits for.
   */
  navigate(path: string, options?: { replace?: boolean }): Promise<void>;
  /** Follows same-origin link clicks and the back/forward buttons from now on. */
  start(): void;
  subscribe(listener: (location: Location) => void): () => void;
}

type Compiled = { pattern: string; test: RegExp; names: string[] };

function compile(pattern: string): Compiled {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { pattern, test: new RegExp(`^${source}/?$`), names };
}

/**
 * A small client-side router on the History API: patterns like `/products/:id`, the first match
 * wins. The same patterns are the assistant's Sitemap, so the pages the hub lets the model open are
 * exactly the pages this router can show.
 *
 * @example
 * const router = createRouter(['/', '/products', '/products/:id']);
 * router.subscribe((location) => render(view(location)));
 * router.start();
 */
export function createRouter(patterns: readonly string[]): Router {
  const compiled = patterns.map(compile);
  const listeners = new Set<(location: Location) => void>();

  const resolve = (): Location => {
    const url = new URL(location.href);
    for (const route of compiled) {
      const match = route.test.exec(url.pathname);
      if (!match) continue;
      const params: Record<string, string> = {};
      try {
        route.names.forEach((name, index) => {
          params[name] = decodeURIComponent(match[index + 1]!);
        });
      } catch {
        // A malformed escape (`/products/%A0`) is no page of ours: "not found", never a crash.
        break;
      }
      return { path: url.pathname, pattern: route.pattern, params, query: url.searchParams };
    }
    return { path: url.pathname, pattern: null, params: {}, query: url.searchParams };
  };

  const notify = () => {
    const current = resolve();
    for (const listener of listeners) listener(current);
  };

  const router: Router = {
    current: resolve,
    async navigate(path, options = {}) {
      const target = new URL(path, location.href);
      // The app's own check, whatever the caller: a router never leaves its origin.
      if (target.origin !== location.origin) throw new Error(`${path} is not on this site`);
      const next = target.pathname + target.search + target.hash;
      if (options.replace) history.replaceState(null, '', next);
      else history.pushState(null, '', next);
      notify();
      await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    },
    start() {
      addEventListener('popstate', notify);
      document.addEventListener('click', (event) => {
        const link = (event.target as Element | null)?.closest?.('a[href]');
        if (!(link instanceof HTMLAnchorElement) || event.defaultPrevented || event.button !== 0) return;
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        if (link.target || link.hasAttribute('download') || link.origin !== location.origin) return;
        event.preventDefault();
        void router.navigate(link.pathname + link.search + link.hash);
      });
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return router;
}
