import type {
  ApprovalSeverity,
  ConsensusOutcome,
  ConversationMessage,
  FileDescriptor,
  PageSnapshot,
} from '@diosc/protocol';
import type { ScriptUrlPolicy } from './pinned-script/load-pinned-script.js';

export type { ApprovalSeverity, ConversationMessage, FileDescriptor, PageSnapshot, ScriptUrlPolicy };

/** A raw browser tool: `diosc('tool', name, handler)`. Sync or async; any JSON-serializable return. */
export type BrowserToolHandler = (params: Record<string, unknown>) => unknown;

/** Routes a validated, same-origin path (React Router, SvelteKit `goto`, …); resolve once the view is ready. */
export type NavigationHandler = (path: string) => unknown;

/** A file a client-side tool hands the user; the kit uploads it and the model sees only a descriptor. */
export interface IntentFileEmission {
  /** A Blob/File (best for binary), a `data:` URL, or a plain string treated as text. */
  content: Blob | string;
  /** Includes the extension. */
  filename: string;
  /** Required for a typeless Blob or a text string. */
  mimeType?: string;
}

/** What an intent handler returns. */
export interface IntentResult {
  success: boolean;
  /** What the model reads back. */
  data?: unknown;
  /** Failure detail. */
  error?: string;
  /** Deliver a downloadable file. */
  file?: IntentFileEmission;
}

/** One row of the approval dialog's before/after table. */
export interface DiffRow {
  field: string;
  current: unknown;
  next: unknown;
}

export interface IntentApproval<A = Record<string, unknown>> {
  severity: ApprovalSeverity;
  /** Titles the request; runs in the browser only. */
  summary?: (args: A) => string;
  /** Rows of the before/after table; runs in the browser only. */
  diff?: (args: A) => DiffRow[];
}

/** An adapter intent: offered to the model as `browser_<name>`; only its metadata crosses the wire. */
export interface IntentDefinition<A = Record<string, unknown>> {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  schema: Record<string, unknown>;
  handler: (args: A) => IntentResult | Promise<IntentResult>;
  approval?: IntentApproval<A>;
}

/** `diosc('browserAdapter', adapter)`: a fresh snapshot every turn, and typed intents. */
export interface BrowserAdapter {
  read?: () => PageSnapshot | Promise<PageSnapshot>;
  // biome-ignore lint/suspicious/noExplicitAny: each intent narrows its own argument type.
  intents?: IntentDefinition<any>[];
}

export interface InitOptions {
  /** The hub's origin (or base URL), e.g. `https://hub.example`. */
  hubUrl: string;
  /** The assistant's publishable key, `pk_…` (not a secret). */
  publishableKey: string;
  /** A host-signed identity (JWT) tying conversations to your own user. */
  identity?: string;
  /** `en` or `es`; default: the browser's language. */
  locale?: string;
  /** CSS custom properties (`--diosc-*`) applied to the widget. */
  theme?: Record<string, string>;
  /** Where the widget goes: an element or a selector. Default: `document.body`. */
  mount?: string | Element;
  /** Also register raw tools and intents with the browser's own agent (`document.modelContext`). */
  webmcp?: boolean;
  /** Open the panel on start. */
  open?: boolean;
  /** A `fetch` to use instead of the global one (tests: `createFakeHub().fetch`). */
  fetch?: typeof fetch;
  /**
   * A Trusted Types policy of the page's own, for a page whose `trusted-types` directive names only
   * its policies: the built kit loads its parts (markdown parser, WebMCP bridge) through its
   * `createScriptURL`. Without it the kit makes its own policy, `diosc-kit`, where the page allows it.
   */
  trustedTypes?: ScriptUrlPolicy;
}

/** What a `consensusView` receives: the request as the dialog shows it (browser-only data). */
export interface ConsensusViewDetail {
  tool: string;
  severity: ApprovalSeverity;
  summary: string;
  args: Record<string, unknown>;
  diff: DiffRow[];
}

/** Restyles the dialog's detail body for one tool; it cannot replace the buttons or the guard. */
export type ConsensusView = (detail: ConsensusViewDetail) => Node | string;

export interface KitEvents {
  /** An assistant message was saved. */
  message: ConversationMessage;
  /** A tool started or finished (server or browser). */
  tool: { tool: string; where: 'server' | 'browser'; phase: 'started' | 'finished'; ok?: boolean };
  /** An approval was decided in the dialog. */
  consensus: { tool: string; decision: ConsensusOutcome };
  /** Something failed (the hub, a turn, a tool, a file). */
  error: { code: string; message: string };
}

export type KitEventName = keyof KitEvents;
