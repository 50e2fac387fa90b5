import type {
  BrowserAccessView,
  DescriptorsView,
  FunctionName,
  GrantEntry,
  PrepareAnswer,
  SessionView,
} from '@diosc/protocol';

// The wire shapes live in @diosc/protocol; re-exported so adapter users need one import.
export type {
  BrowserAccessView,
  DescriptorsView,
  GrantEntry,
  PrepareAnswer,
  ReviewEffects,
  ReviewReceipt,
  SessionView,
} from '@diosc/protocol';

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
  /** A receipt to review, or the stored result of a write already committed under its request ID. */
  prepare(call: ToolCall, signal?: AbortSignal): Promise<PrepareAnswer>;
  acknowledge(receiptId: string, digest: string, signal?: AbortSignal): Promise<{ acknowledged: boolean }>;
  execute(
    call: ToolCall & { receiptId: string },
    signal?: AbortSignal,
  ): Promise<{ result: unknown; replayed: boolean }>;
}
