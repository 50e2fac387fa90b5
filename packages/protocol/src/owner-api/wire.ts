import type { ToolDescriptor } from '../catalog/descriptors.js';
import type { CollectionFunction, CollectionKind } from '../catalog/schemas.js';
import type { ItemFull, MessageMetadata } from '../catalog/types.js';

/**
 * Wire shapes of the owner API (`docs/api/owner.md`), shared by the server that sends them and the
 * browser packages that read them — defined once, here, so the three cannot drift apart.
 */

/** One exact grant entry: a collection and the functions allowed on it. */
export interface GrantEntry {
  collection: string;
  functions: CollectionFunction[];
}

export interface SessionView {
  account: { id: string; email: string; displayName: string };
  csrfToken: string;
  sessionGeneration: number;
}

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
  tool: 'item_write' | 'item_delete';
  input: Record<string, unknown>;
  digest: string;
  expiresAt: string;
  effects: ReviewEffects;
}

/** An app connection as the owner sees it. Never carries the token or its hash. */
export interface ConnectionView {
  id: string;
  displayName: string;
  transport: 'http_mcp' | 'browser';
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
  transport: 'http_mcp' | 'browser' | 'owner';
  requestId: string | null;
  tool: string;
  collection: string | null;
  /** `ok`, `replayed`, or the error code. */
  outcome: string;
  durationMs: number;
  at: string;
}
