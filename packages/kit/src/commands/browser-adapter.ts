import { checkAdapter } from '../adapter/browser-adapter.js';
import { notifyRegistry } from '../kit-context.js';
import { type Command, expectArgs } from './command.js';

/**
 * `diosc('browserAdapter', adapter | null)`: a snapshot with every message and intents as
 * `browser_<name>` tools. `null` clears it: no snapshots, no intents.
 */
export const browserAdapter: Command = (kit, args) => {
  expectArgs(args, 1, "diosc('browserAdapter', { read?, intents? } | null)");
  kit.adapter.set(args[0] === null ? null : checkAdapter(args[0]));
  notifyRegistry(kit);
};
