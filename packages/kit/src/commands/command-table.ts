import { LocalError } from '@diosc/protocol';
import type { KitContext } from '../kit-context.js';
import { browserAdapter } from './browser-adapter.js';
import type { Command } from './command.js';
import { consensusView } from './consensus-view.js';
import { destroy } from './destroy.js';
import { init } from './init.js';
import { on } from './on.js';
import { close, open } from './open.js';
import { send } from './send.js';
import { setNavigationHandler } from './set-navigation-handler.js';
import { tool } from './tool.js';

/** Every `diosc()` command; docs/api/kit.md documents each one. */
export const COMMANDS: Record<string, Command> = {
  init,
  tool,
  browserAdapter,
  setNavigationHandler,
  consensusView,
  open,
  close,
  send,
  on,
  destroy,
};

/**
 * Runs one command. An unknown command or a bad argument is a console error naming the command —
 * never a silent no-op, and never an exception that would stop the replay of a queue.
 */
export function runCommand(kit: KitContext, name: unknown, args: readonly unknown[]): unknown {
  if (typeof name !== 'string' || !Object.hasOwn(COMMANDS, name)) {
    console.error(
      `[diosc] unknown command ${JSON.stringify(name)}; the commands are ${Object.keys(COMMANDS).join(', ')}`,
    );
    return undefined;
  }
  try {
    return COMMANDS[name]!(kit, args);
  } catch (error) {
    if (LocalError.hasCode(error, 'invalid_command')) console.error(`[diosc] ${name}: ${error.message}`);
    else console.error(`[diosc] ${name} failed`, error);
    return undefined;
  }
}
