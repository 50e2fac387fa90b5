import { Observable } from '../state/observable.js';

export type Route =
  | { page: 'collections'; collection: string | null; item: string | null }
  | { page: 'connected-apps' }
  | { page: 'automation-hub' }
  | { page: 'sign-in' }
  | { page: 'not-found' };

export const PATHS = {
  collections: '/collections',
  connectedApps: '/connected-apps',
  automationHub: '/automation-hub',
  signIn: '/sign-in',
} as const;

export function collectionPath(collection: string, item?: string): string {
  const base = `${PATHS.collections}/${encodeURIComponent(collection)}`;
  return item === undefined ? base : `${base}/${encodeURIComponent(item)}`;
}

export function parseRoute(pathname: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [first, second, third, ...rest] = parts;
  if (first === undefined) return { page: 'collections', collection: null, item: null };
  if (first === 'collections' && rest.length === 0) {
    return { page: 'collections', collection: second ?? null, item: third ?? null };
  }
  if (parts.length === 1 && first === 'connected-apps') return { page: 'connected-apps' };
  if (parts.length === 1 && first === 'automation-hub') return { page: 'automation-hub' };
  if (parts.length === 1 && first === 'sign-in') return { page: 'sign-in' };
  return { page: 'not-found' };
}

/**
 * History-API routing. The server answers every non-API navigation with the shell, so each route is
 * a real URL that survives a reload. Same-origin links inside any shadow root are intercepted.
 */
export function createRouter() {
  const route = new Observable<Route>(parseRoute(location.pathname));

  function navigate(path: string, options: { replace?: boolean } = {}): void {
    if (path !== location.pathname) {
      if (options.replace) history.replaceState(null, '', path);
      else history.pushState(null, '', path);
    }
    route.set(parseRoute(location.pathname));
  }

  window.addEventListener('popstate', () => route.set(parseRoute(location.pathname)));
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    const anchor = event
      .composedPath()
      .find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement);
    if (!anchor || anchor.target || anchor.origin !== location.origin || anchor.hasAttribute('download'))
      return;
    event.preventDefault();
    navigate(anchor.pathname);
  });

  return { route, navigate };
}

export type Router = ReturnType<typeof createRouter>;
