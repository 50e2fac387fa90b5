import type { ToolDescriptor } from '../catalog/descriptors.js';
import type { CollectionFunction, CollectionKind } from '../catalog/schemas.js';
import type { ItemFull, MessageMetadata, MutatingFunction } from '../catalog/types.js';

/**
 * Wire shapes of the owner API (`docs/api/owner.md`), shared by the server that sends them and the
 * browser packages that read them — defined once, here, so the three cannot drift apart.
 */

/**
 * The way a call came in, as the usage record names it: `http_mcp` (`/mcp`), `browser` (browser
 * tools through the owner API), `owner` (the portal's own calls), `hub` (the assistant hub).
 */
export const CALL_CHANNELS = ['http_mcp', 'browser', 'owner', 'hub'] as const;
export type CallChannel = (typeof CALL_CHANNELS)[number];

/** How an app connection reaches the account: a bearer token over HTTP MCP, or one browser session. */
export type ConnectionTransport = 'http_mcp' | 'browser';

/** One exact grant entry: a collection and the functions allowed on it. */
export interface GrantEntry {
  collection: string;
  functions: CollectionFunction[];
}

export interface SessionView {
  account: { id: string; email: string; displayName: string };
  csrfToken: string;
  sessionGeneration: number;
  /** When this session began (ISO): the activity log marks what came before it. */
  startedAt: string;
  /**
   * Whether this server offers browser tools at all (the operator's release gate): when false,
   * every browser-access route refuses with `feature_disabled`, so a page need not ask each one.
   */
  browserTools: boolean;
}

/**
 * `GET /api/owner/session/status`: the session, or why there is none — answered 200 either way,
 * since being signed out is a normal state, not a failed request. `ended` is true when a session
 * cookie was sent for a session that has ended (expired, signed out, replaced).
 */
export type SessionStatus = { signedIn: true; session: SessionView } | { signedIn: false; ended: boolean };

export interface BrowserAccessView {
  enabled: boolean;
  selection: GrantEntry[] | null;
  generation: number | null;
  sessionGeneration: number;
}

export interface DescriptorsView {
  tools: ToolDescriptor[];
  selection: GrantEntry[] | null;
  generation: number;
  sessionGeneration: number;
}

/** What a reviewed change will do; shown to the owner before anything is dispatched. */
export interface ReviewEffects {
  collection: { id: string; title: string; kind: CollectionKind };
  item: string;
  action: 'create' | 'replace' | 'metadata' | 'delete';
  before: ItemFull | null;
  after: { title?: string; content?: string; contentType?: string; metadata?: MessageMetadata } | null;
}

export interface ReviewReceipt {
  id: string;
  tool: MutatingFunction;
  input: Record<string, unknown>;
  digest: string;
  expiresAt: string;
  effects: ReviewEffects;
}

/**
 * The answer of `prepare`: a receipt to review, or — when this exact write was already committed
 * under its request ID — its stored result, with nothing to review (`replayed: true`).
 */
export type PrepareAnswer =
  | { receipt: ReviewReceipt; replayed?: never }
  | { replayed: true; result: unknown; receipt?: never };

/** The answer of `DELETE /api/owner/collections/:id/source`: the owner disconnected a provider source. */
export interface SourceDisconnection {
  collection: { id: string; title: string; kind: CollectionKind };
  /** When the source was disconnected (the first time, if it already was). */
  disconnectedAt: string;
  /** False when the source was already disconnected: nothing changed. */
  changed: boolean;
}

/** An app connection as the owner sees it. Never carries the token or its hash. */
export interface ConnectionView {
  id: string;
  displayName: string;
  transport: ConnectionTransport;
  provenance: string;
  grant: GrantEntry[];
  grantGeneration: number;
  tokenExpiresAt: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** One recorded tool call: identifiers and outcomes only, never arguments or credentials. */
export interface UsageView {
  id: string;
  connectionId: string | null;
  transport: CallChannel;
  requestId: string | null;
  tool: string;
  collection: string | null;
  /** `ok`, `replayed`, or the error code. */
  outcome: string;
  durationMs: number;
  at: string;
}
