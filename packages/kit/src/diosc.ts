import { runCommand } from './commands/command-table.js';
import { createKitContext, type KitContext } from './kit-context.js';
import { createNavigate } from './tools/navigate.js';
import { readPage } from './tools/read-page.js';
import type {
  BrowserAdapter,
  BrowserToolHandler,
  ConsensusView,
  InitOptions,
  KitEventName,
  KitEvents,
  NavigationHandler,
} from './types.js';

/** The command function: one entry point, so the pre-load queue and the module look the same. */
export interface Diosc {
  (command: 'init', options: InitOptions): void;
  (command: 'tool', name: string, handler: BrowserToolHandler | null): void;
  (command: 'browserAdapter', adapter: BrowserAdapter | null): void;
  (command: 'setNavigationHandler', handler: NavigationHandler | null): void;
  (command: 'consensusView', tool: string, view: ConsensusView | null): void;
  (command: 'open' | 'close' | 'destroy'): void;
  (command: 'send', text: string): Promise<boolean> | undefined;
  <K extends KitEventName>(
    command: 'on',
    event: K,
    listener: (payload: KitEvents[K]) => void,
  ): (() => void) | undefined;
}

/**
 * A fresh kit with its own state (tools, adapter, listeners, widget) and the built-in `navigate`
 * and `read_page`, with the context behind it (the kit's own tests look inside; hosts never do).
 */
export function createKit(): { diosc: Diosc; kit: KitContext } {
  const kit = createKitContext();
  kit.builtIns.set('navigate', createNavigate(kit));
  kit.builtIns.set('read_page', readPage);
  const diosc = ((name: unknown, ...args: unknown[]) => runCommand(kit, name, args)) as Diosc;
  return { diosc, kit };
}

/** A fresh kit; the page's `diosc` is one of these. */
export function createDiosc(): Diosc {
  return createKit().diosc;
}
