import { LocalError } from '@diosc/protocol';
import type { StartWebMcpBridge } from './load-bridge.js';

/** Filled in by the build: the bridge's content-hashed file (beside this one) and its SRI digest. */
declare const __DIOSC_WEBMCP_SCRIPT__: { file: string; integrity: string };

/** Where the bridge script puts itself (`bridge-script.ts`). */
export const BRIDGE_KEY = Symbol.for('diosc.webmcp-bridge');

/** The kit's own URL, read while the kit's script runs (later `currentScript` is someone else's). */
const base =
  (globalThis.document?.currentScript as HTMLScriptElement | null)?.src || globalThis.location?.href;

/**
 * The built kit's way to load the WebMCP bridge: one more `<script>` from beside the kit's own file,
 * pinned with `integrity`, that hands over `startWebMcpBridge`. Used instead of `load-bridge.ts` in
 * `dist/` (the bundle swaps them), so the bridge is not in the kit's initial JavaScript.
 */
export function loadWebMcpBridge(): Promise<StartWebMcpBridge> {
  const scope = globalThis as typeof globalThis & { [BRIDGE_KEY]?: StartWebMcpBridge };
  const loaded = scope[BRIDGE_KEY];
  if (loaded) return Promise.resolve(loaded);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = new URL(__DIOSC_WEBMCP_SCRIPT__.file, base).href;
    script.integrity = __DIOSC_WEBMCP_SCRIPT__.integrity;
    script.crossOrigin = 'anonymous';
    script.async = true;
    script.onload = () => {
      const start = scope[BRIDGE_KEY];
      if (start) resolve(start);
      else reject(new LocalError('transport_failed', 'The WebMCP bridge script did not load.'));
    };
    script.onerror = () =>
      reject(new LocalError('transport_failed', `The WebMCP bridge could not be loaded from ${script.src}.`));
    document.head.append(script);
  });
}
