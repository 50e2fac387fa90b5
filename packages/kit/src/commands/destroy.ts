import { INITIAL_STATE } from '../conversation/conversation-state.js';
import { notifyRegistry } from '../kit-context.js';
import { type Command, expectArgs } from './command.js';

/**
 * `diosc('destroy')`: disconnects, removes the widget, unregisters WebMCP tools and forgets every
 * tool, adapter, view and listener, so `init` can start afresh. The visitor session stays stored.
 */
export const destroy: Command = (kit, args) => {
  expectArgs(args, 0, "diosc('destroy')");
  kit.session?.stop();
  kit.session = null;
  kit.stopWebMcp?.();
  kit.stopWebMcp = null;
  kit.widget?.remove();
  kit.widget = null;
  kit.options = null;
  kit.tools.clear();
  kit.adapter.set(null);
  kit.navigationHandler = null;
  kit.views.clear();
  for (const set of Object.values(kit.listeners)) set.clear();
  kit.state.set(INITIAL_STATE);
  kit.open.set(false);
  notifyRegistry(kit);
};
