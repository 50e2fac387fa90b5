import type { BrowserAdapter, BrowserToolHandler, NavigationHandler } from '@diosc/kit';

/**
 * The page kit's commands as the bindings use them, with the real kit's semantics where they
 * matter: `destroy` forgets every tool, the adapter and the navigation handler.
 */
export function createFakeKit() {
  const state = {
    started: 0,
    destroyed: 0,
    tools: new Map<string, BrowserToolHandler>(),
    adapter: null as BrowserAdapter | null,
    navigation: null as NavigationHandler | null,
    /** Every command, in order: `['tool', name]`, `['init']`, … */
    commands: [] as unknown[][],
  };
  const diosc = (command: string, ...args: unknown[]) => {
    state.commands.push([command, ...(command === 'tool' ? [args[0], args[1] === null ? null : 'set'] : [])]);
    if (command === 'init') state.started++;
    if (command === 'destroy') {
      state.destroyed++;
      state.tools.clear();
      state.adapter = null;
      state.navigation = null;
    }
    if (command === 'tool') {
      const [name, handler] = args as [string, BrowserToolHandler | null];
      if (handler) state.tools.set(name, handler);
      else state.tools.delete(name);
    }
    if (command === 'browserAdapter') state.adapter = args[0] as BrowserAdapter | null;
    if (command === 'setNavigationHandler') state.navigation = args[0] as NavigationHandler | null;
  };
  return { diosc, state };
}
