// The entry of `dist/diosc-kit-webmcp.<hash>.js`: hands `startWebMcpBridge` to the kit that loaded it.
import { BRIDGE_KEY } from './load-bridge-script.js';
import { startWebMcpBridge } from './webmcp-bridge.js';

(globalThis as Record<symbol, unknown>)[BRIDGE_KEY] = startWebMcpBridge;
