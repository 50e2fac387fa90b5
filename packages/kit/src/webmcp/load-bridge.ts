import type { startWebMcpBridge } from './webmcp-bridge.js';

export type StartWebMcpBridge = typeof startWebMcpBridge;

/**
 * The WebMCP bridge, loaded only for `init({ webmcp: true })`. From source (a host's bundler) it is
 * a dynamic import, split into its own chunk; the hub's built files swap this module for
 * `load-bridge-script.ts`, which adds the bridge's own pinned script.
 */
export async function loadWebMcpBridge(): Promise<StartWebMcpBridge> {
  return (await import('./webmcp-bridge.js')).startWebMcpBridge;
}
