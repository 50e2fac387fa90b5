import type { NavigationHandler } from '../types.js';
import { type Command, expectArgs, invalid } from './command.js';

/** `diosc('setNavigationHandler', (path) => …)`: SPA navigation for `navigate` (`null`: full page loads). */
export const setNavigationHandler: Command = (kit, args) => {
  expectArgs(args, 1, "diosc('setNavigationHandler', (path) => void | Promise<void>)");
  const [handler] = args;
  if (handler !== null && typeof handler !== 'function')
    throw invalid('the handler must be a function (path) => void | Promise<void>, or null');
  kit.navigationHandler = handler as NavigationHandler | null;
};
