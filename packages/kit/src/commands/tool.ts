import { CLIENT_TOOL_NAME_PATTERN, INTENT_TOOL_PREFIX, PAGE_LIMITS } from '@diosc/protocol';
import { notifyRegistry, toolNames } from '../kit-context.js';
import type { BrowserToolHandler } from '../types.js';
import { type Command, expectArgs, invalid } from './command.js';

const NAME = new RegExp(CLIENT_TOOL_NAME_PATTERN);

/**
 * `diosc('tool', name, handler)`: a raw browser tool (`null` removes it). The same name as a
 * built-in (`navigate`, `read_page`) overrides it.
 */
export const tool: Command = (kit, args) => {
  expectArgs(args, 2, "diosc('tool', name, handler)");
  const [name, handler] = args;
  if (typeof name !== 'string' || !NAME.test(name))
    throw invalid(`name must match ${CLIENT_TOOL_NAME_PATTERN} (got ${JSON.stringify(name)})`);
  if (name.startsWith(INTENT_TOOL_PREFIX))
    throw invalid(`"${name}": names starting with "${INTENT_TOOL_PREFIX}" are the adapter's intents`);
  if (handler === null) {
    kit.tools.delete(name);
  } else {
    if (typeof handler !== 'function')
      throw invalid(`"${name}": handler must be a function (params) => result`);
    if (!kit.tools.has(name) && !kit.builtIns.has(name) && toolNames(kit).length >= PAGE_LIMITS.maxTools)
      throw invalid(`a page may register at most ${PAGE_LIMITS.maxTools} tools`);
    kit.tools.set(name, handler as BrowserToolHandler);
  }
  notifyRegistry(kit);
};
