import { createPortal } from './app/portal.js';
import { initI18n } from './i18n/i18n.js';
import './app/app-root.js';

/**
 * Boots the portal: catalogues first (every visible string comes from them), then the session
 * query, then the UI. There is deliberately no service worker: every private response is fetched
 * with `cache: 'no-store'` and nothing of the owner's data is kept offline.
 */
async function main(): Promise<void> {
  await initI18n();
  const portal = createPortal();
  const root = document.createElement('diosc-app');
  Object.assign(root, { portal });
  document.body.replaceChildren(root);
  await portal.session.refresh('expired');
}

void main();
