import {
  type ApprovalSeverity,
  CodedError,
  type FileDescriptor,
  type IntentDecisionReport,
  LocalError,
} from '@diosc/protocol';

/** One call of a page tool, from the hub (an interrupt) or from the browser's own agent (WebMCP). */
export interface BrowserCall {
  kind: 'tool' | 'intent';
  /** The raw tool's name or the intent's name (without `browser_`). */
  tool: string;
  args: Record<string, unknown>;
  /** What the hub says the intent declared; the gate applies if either side asks for approval. */
  severity?: ApprovalSeverity;
  interruptId: string | null;
  /** Aborts when the call is moot (interrupt resolved elsewhere, turn cancelled, agent cancelled). */
  signal?: AbortSignal;
}

/** What a call produced: the answer's body without the page's new view. */
export type Outcome =
  | { result: unknown; file?: FileDescriptor; decision?: IntentDecisionReport }
  | { error: string; decision?: IntentDecisionReport };

export interface RunHooks {
  /** Just before a handler is called: the journal's "started". */
  beforeRun(): void;
  /** A full-page navigation is about to unload this page. */
  leavingPage(result: unknown): void;
}

const ERROR_MAX = 4_000;

/** The stable code of a hub refusal (`CodedError`) or a local error (`LocalError`), else `internal`. */
export function errorCode(error: unknown): string {
  return CodedError.isInstance(error) || LocalError.isInstance(error) ? error.code : 'internal';
}

export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : String(error);
  return (text || 'The tool failed.').slice(0, ERROR_MAX);
}
