import { diosc } from '@diosc/kit';
import type { AppContext } from '../app/app-context.js';
import { addToCart } from './add-to-cart.js';
import { highlightRow } from './highlight-row.js';

/** The hub's URL and the assistant's publishable key (not a secret), from the page's `<meta>` tags. */
function hubConfig(): { hubUrl: string; publishableKey: string } | null {
  const read = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
  const hubUrl = read('diosc-hub-url');
  const publishableKey = read('diosc-publishable-key');
  return hubUrl && publishableKey ? { hubUrl, publishableKey } : null;
}

/**
 * Everything Northwind registers with the kit: the built-in `navigate` routed through the app's own
 * router (no reload), and two raw tools. `read_page` needs nothing: the kit's built-in reads the
 * visible page. Without a hub configured the store works as before, just without the assistant.
 */
export function connectAssistant(app: AppContext): boolean {
  const config = hubConfig();
  if (!config) return false;
  diosc('setNavigationHandler', (path) => app.router.navigate(path));
  diosc('tool', 'highlight_row', highlightRow(app));
  diosc('tool', 'add_to_cart', addToCart(app));
  diosc('init', { ...config, theme: { '--diosc-accent': '#2f6f4f' } });
  return true;
}
