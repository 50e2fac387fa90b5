/**
 * What a page tells the hub about itself with every message: a snapshot of the view and the
 * metadata of the client-side tools it can run. Only metadata crosses the wire — handlers, approval
 * summaries and diffs stay in the browser.
 */

/** `adapter.read()`'s result: the page as it is right now. */
export interface PageSnapshot {
  url: string;
  title: string;
  /** One-line summary of the view. */
  description?: string;
  /** The view's semantic text or markdown. */
  content?: string;
  /** Any JSON-serializable structured state. */
  data?: unknown;
}

export type ApprovalSeverity = 'low' | 'medium' | 'high';

/** An intent as it crosses the wire: never its handler, `approval.summary` or `approval.diff`. */
export interface IntentMetadata {
  name: string;
  description: string;
  /** JSON Schema of the intent's arguments (an object schema). */
  schema: Record<string, unknown>;
  approval?: { severity: ApprovalSeverity };
}

/** What the page can run: raw browser tools it has handlers for, and its adapter's intents. */
export interface PageRegistry {
  tools: string[];
  intents: IntentMetadata[];
}

/** Intents are offered to the model as `browser_<name>`. */
export const INTENT_TOOL_PREFIX = 'browser_';

export function intentToolName(intent: string): string {
  return `${INTENT_TOOL_PREFIX}${intent}`;
}

/** Names of raw tools and intents: what WebMCP and every model provider accept. */
export const CLIENT_TOOL_NAME_PATTERN = '^[A-Za-z][A-Za-z0-9_-]{0,63}$';

/** Bounds of what a page may send (a snapshot is context, not storage). */
export const PAGE_LIMITS = {
  snapshotContentMaxChars: 20_000,
  snapshotDataMaxBytes: 16_384,
  maxTools: 64,
  maxIntents: 64,
  schemaMaxBytes: 16_384,
  descriptionMaxChars: 1_024,
} as const;
