import type { InternalTool, KitContext } from '../kit-context.js';

/** How long a started full-page navigation may take before the page says it did not happen. */
const LEAVE_TIMEOUT_MS = 30_000;

/**
 * The built-in `navigate`: the host's navigation handler (SPA, no reload) when there is one, else
 * `window.location.assign`. Only same-origin paths are followed — the hub validates them against the
 * Sitemap first; this is the page's own check. A full-page navigation journals its result, and the
 * next page's kit answers the interrupt once it has started.
 */
export function createNavigate(kit: KitContext): InternalTool {
  return async (params, context) => {
    const path = params.path;
    if (typeof path !== 'string' || path.trim() === '')
      return { error: 'navigate needs a path, e.g. "/products"' };
    let target: URL;
    try {
      target = new URL(path, location.href);
    } catch {
      return { error: `"${path}" is not a path` };
    }
    if (target.origin !== location.origin) return { error: `navigate stays on this site; "${path}" is not` };
    const navigatedTo = target.pathname + target.search + target.hash;
    const result = { navigatedTo };
    if (kit.navigationHandler) {
      await kit.navigationHandler(navigatedTo);
      return result;
    }
    const here = new URL(location.href);
    if (target.pathname === here.pathname && target.search === here.search) {
      location.assign(target.href);
      return result;
    }
    context.leavingPage(result);
    let left = false;
    addEventListener('pagehide', () => (left = true), { once: true });
    location.assign(target.href);
    return new Promise((_resolve, reject) => {
      setTimeout(() => {
        if (!left) reject(new Error(`The page did not navigate to ${navigatedTo}.`));
      }, LEAVE_TIMEOUT_MS);
    });
  };
}
