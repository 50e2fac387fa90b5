import { loadPinnedScript, type PinnedScript } from '../pinned-script/load-pinned-script.js';
import type { StartWebMcpBridge } from './load-bridge.js';

/** Filled in by the build: the bridge's content-hashed file (beside this one) and its SRI digest. */
declare const __DIOSC_WEBMCP_SCRIPT__: PinnedScript;

/** Where the bridge script puts itself (`bridge-script.ts`). */
export const BRIDGE_KEY = Symbol.for('diosc.webmcp-bridge');

/**
 * The built kit's way to load the WebMCP bridge: its own pinned script, which hands over
 * `startWebMcpBridge`. Used instead of `load-bridge.ts` in `dist/` (the bundle swaps them), so the
 * bridge is not in the kit's initial JavaScript.
 */
export function loadWebMcpBridge(): Promise<StartWebMcpBridge> {
  return loadPinnedScript(__DIOSC_WEBMCP_SCRIPT__, BRIDGE_KEY, 'WebMCP bridge');
}
