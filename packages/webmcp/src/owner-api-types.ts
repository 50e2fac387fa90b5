import type { CollectionKind, FunctionName, ItemFull, ToolDescriptor } from '@diosc/protocol';

/** Wire shapes of the owner API's browser-access endpoints (docs/api/owner.md). */

export interface GrantEntry {
  collection: string;
  functions: ('items_list' | 'item_read' | 'item_write' | 'item_delete')[];
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

/** What the server says a reviewed change will do. Shown to the owner before anything is dispatched. */
export interface ReviewEffects {
  collection: { id: string; title: string; kind: CollectionKind };
  item: string;
  action: 'create' | 'replace' | 'metadata' | 'delete';
  before: ItemFull | null;
  after: {
    title?: string;
    content?: string;
    contentType?: string;
    metadata?: Record<string, unknown>;
  } | null;
}

export interface ReviewReceipt {
  id: string;
  tool: 'item_write' | 'item_delete';
  input: Record<string, unknown>;
  digest: string;
  expiresAt: string;
  effects: ReviewEffects;
}

export interface ToolCall {
  tool: FunctionName;
  input: Record<string, unknown>;
  generation: number;
}

/**
 * The owner API as the adapter (and the portal) calls it. Every method forwards `signal` to `fetch`,
 * sends cookies same-origin only, never caches, and throws a `DioscError` with the server's stable
 * code on any refusal.
 */
export interface OwnerBrowserApi {
  session(signal?: AbortSignal): Promise<SessionView>;
  browserAccess(signal?: AbortSignal): Promise<BrowserAccessView>;
  enableAccess(selection: GrantEntry[], signal?: AbortSignal): Promise<BrowserAccessView>;
  disableAccess(signal?: AbortSignal): Promise<BrowserAccessView>;
  descriptors(signal?: AbortSignal): Promise<DescriptorsView>;
  dispatch(call: ToolCall, signal?: AbortSignal): Promise<{ result: unknown }>;
  prepare(call: ToolCall, signal?: AbortSignal): Promise<{ receipt: ReviewReceipt }>;
  acknowledge(receiptId: string, digest: string, signal?: AbortSignal): Promise<{ acknowledged: boolean }>;
  execute(
    call: ToolCall & { receiptId: string },
    signal?: AbortSignal,
  ): Promise<{ result: unknown; replayed: boolean }>;
}
