import type { KitContext } from '../kit-context.js';
import type { BrowserCall, Outcome, RunHooks } from './browser-call.js';
import { runIntent } from './run-intent.js';
import { runRawTool } from './run-raw-tool.js';

/** Runs one call through the same path whoever asked: lookup, approval gate, handler, result contract. */
export function runBrowserCall(kit: KitContext, call: BrowserCall, hooks: RunHooks): Promise<Outcome> {
  return call.kind === 'intent' ? runIntent(kit, call, hooks) : runRawTool(kit, call, hooks);
}
