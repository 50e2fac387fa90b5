import type { FileDescriptor, PageRegistry } from '@diosc/protocol';
import { intentMetadata } from './adapter/browser-adapter.js';
import { type ConsensusBroker, createConsensusBroker } from './consensus/consensus-broker.js';
import { type ConversationState, INITIAL_STATE } from './conversation/conversation-state.js';
import { createStore, type Store } from './conversation/store.js';
import type { HubClient } from './hub-client/hub-client.js';
import { createTranslator, pickLocale, type Translator } from './i18n/translator.js';
import type {
  BrowserAdapter,
  BrowserToolHandler,
  ConsensusView,
  InitOptions,
  KitEventName,
  KitEvents,
  NavigationHandler,
} from './types.js';

/** A built-in tool gets a second argument: how to say "this page is about to unload". */
export interface ToolCallContext {
  interruptId: string | null;
  /** Journals the result a full-page navigation answers with from the next page. */
  leavingPage(result: unknown): void;
}

export type InternalTool = (params: Record<string, unknown>, context: ToolCallContext) => unknown;

/** The running parts after `init`: the hub client and what talks to it. */
export interface KitSession {
  readonly client: HubClient;
  conversationId(): string | null;
  /** The conversation, created on first use. */
  ensureConversation(): Promise<string>;
  send(text: string, attachments?: FileDescriptor[]): Promise<void>;
  cancelTurn(): Promise<void>;
  retry(): void;
  stop(): void;
}

/**
 * Everything one `diosc` instance knows. No module-level state: two kits on one page (or in one
 * test) never share tools, adapters or listeners.
 */
export interface KitContext {
  options: InitOptions | null;
  session: KitSession | null;
  /** Raw tools the host registered (they override built-ins of the same name). */
  readonly tools: Map<string, BrowserToolHandler>;
  readonly builtIns: Map<string, InternalTool>;
  adapter: Store<BrowserAdapter | null>;
  navigationHandler: NavigationHandler | null;
  readonly views: Map<string, ConsensusView>;
  readonly listeners: { [K in KitEventName]: Set<(payload: KitEvents[K]) => void> };
  readonly state: Store<ConversationState>;
  readonly open: Store<boolean>;
  readonly consensus: ConsensusBroker;
  translator: Translator;
  /** The widget's element, once mounted. */
  widget: HTMLElement | null;
  /** Called when tools or intents change (the WebMCP bridge re-registers). */
  readonly registryChanged: Set<() => void>;
  /** Takes the WebMCP registrations back (set by `init({ webmcp: true })`). */
  stopWebMcp: (() => void) | null;
}

export function createKitContext(): KitContext {
  return {
    options: null,
    session: null,
    tools: new Map(),
    builtIns: new Map(),
    adapter: createStore<BrowserAdapter | null>(null),
    navigationHandler: null,
    views: new Map(),
    listeners: { message: new Set(), tool: new Set(), consensus: new Set(), error: new Set() },
    state: createStore(INITIAL_STATE),
    open: createStore(false),
    consensus: createConsensusBroker(),
    translator: createTranslator(pickLocale()),
    widget: null,
    registryChanged: new Set(),
    stopWebMcp: null,
  };
}

export function emit<K extends KitEventName>(kit: KitContext, name: K, payload: KitEvents[K]): void {
  for (const listener of [...kit.listeners[name]]) {
    try {
      listener(payload);
    } catch (error) {
      console.error(`[diosc] an "${name}" listener threw`, error);
    }
  }
}

/** The raw tools this page can run: the host's and the built-ins. */
export function toolNames(kit: KitContext): string[] {
  return [...new Set([...kit.builtIns.keys(), ...kit.tools.keys()])];
}

/** What the page tells the hub it can run (metadata only). */
export function pageRegistry(kit: KitContext): PageRegistry {
  return { tools: toolNames(kit), intents: intentMetadata(kit.adapter.get()) };
}

export function notifyRegistry(kit: KitContext): void {
  for (const listener of [...kit.registryChanged]) listener();
}
