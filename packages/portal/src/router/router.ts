import { Observable } from '../state/observable.js';

export type Route =
  | { page: 'collections'; collection: string | null; item: string | null }
  | { page: 'connected-apps' }
  | { page: 'automation-hub' }
  | {
      page: 'assistants';
      /** `null` for the list, `'new'` for the create form, else an assistant ID. */
      assistant: string | null;
      section: AssistantSection;
      conversation: string | null;
    }
  | { page: 'sign-in' }
  | { page: 'not-found' };

export const ASSISTANT_SECTIONS = [
  'settings',
  'tools',
  'sitemap',
  'embed',
  'conversations',
  'usage',
  'audit',
] as const;
export type AssistantSection = (typeof ASSISTANT_SECTIONS)[number];

export const PATHS = {
  collections: '/collections',
  connectedApps: '/connected-apps',
  automationHub: '/automation-hub',
  assistants: '/assistants',
  signIn: '/sign-in',
} as const;

export function collectionPath(collection: string, item?: string): string {
  const base = `${PATHS.collections}/${encodeURIComponent(collection)}`;
  return item === undefined ? base : `${base}/${encodeURIComponent(item)}`;
}

export function assistantPath(assistant: string, section?: AssistantSection, conversation?: string): string {
  const base = `${PATHS.assistants}/${encodeURIComponent(assistant)}`;
  if (!section) return base;
  const withSection = `${base}/${section}`;
  return conversation ? `${withSection}/${encodeURIComponent(conversation)}` : withSection;
}

function parseAssistantRoute(parts: string[]): Route {
  const [assistant, section, conversation, ...rest] = parts;
  if (rest.length > 0) return { page: 'not-found' };
  if (assistant === undefined)
    return { page: 'assistants', assistant: null, section: 'settings', conversation: null };
  if (assistant === 'new' && section !== undefined) return { page: 'not-found' };
  const known = ASSISTANT_SECTIONS.find((name) => name === (section ?? 'settings'));
  if (!known || (conversation !== undefined && known !== 'conversations')) return { page: 'not-found' };
  return { page: 'assistants', assistant, section: known, conversation: conversation ?? null };
}

export function parseRoute(pathname: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [first, second, third, ...rest] = parts;
  if (first === undefined) return { page: 'collections', collection: null, item: null };
  if (first === 'collections' && rest.length === 0) {
    return { page: 'collections', collection: second ?? null, item: third ?? null };
  }
  if (first === 'assistants') return parseAssistantRoute(parts.slice(1));
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
