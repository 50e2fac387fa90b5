import type { ErrorCode, FunctionName, LocalErrorCode } from '@diosc/protocol';
import type { DetectedModelContext } from './model-context.js';
import type { OwnerBrowserApi, ReviewReceipt } from './owner-api-types.js';

/**
 * The availability states the portal renders. `feature-disabled` is the server's release gate: the
 * operator has not turned browser tools on (`feature_disabled`), whatever this browser supports.
 */
export type AdapterStatus =
  | 'unsupported'
  | 'disabled'
  | 'registered'
  | 'offline'
  | 'expired-session'
  | 'failure'
  | 'feature-disabled';

export interface AdapterState {
  status: AdapterStatus;
  /** Plain-text reason, for `failure` and the revocations that caused the state. */
  reason?: string;
  /** The stable error code behind `failure`/`expired-session`, when there is one. */
  code?: ErrorCode | LocalErrorCode;
  /** Names of the tools this adapter currently has registered (empty unless `registered`). */
  tools: string[];
  /** The browser-access grant generation the tools were registered for. */
  generation?: number;
}

export type RevokeReason = 'disabled' | 'sign-out' | 'session-replaced' | 'offline' | 'teardown';

/**
 * What the reviewer sees. `receipt` is a frozen deep copy: editing it cannot change what runs, because
 * the invocation uses the adapter's privately captured input. `signal` aborts when the review is
 * moot (the agent cancelled, the owner signed out, tools were disabled, the page is closing).
 */
export interface ReviewRequest {
  receipt: Readonly<ReviewReceipt>;
  signal: AbortSignal;
}

/** Shows the change to the owner and settles with their decision. The portal supplies the dialog. */
export type Reviewer = (request: ReviewRequest) => Promise<'accept' | 'reject'>;

/**
 * `replayed`: a write already committed under its request ID — its stored result, with no review.
 * `in-progress` is reported once for a write the owner accepted, before its answer; the same call's
 * final entry (same tool and request ID) follows when the server has answered — never earlier.
 */
export type ActivityOutcome =
  | 'ok'
  | 'replayed'
  | 'error'
  | 'declined'
  | 'cancelled'
  | 'uncertain'
  | 'refused'
  | 'in-progress';

/**
 * One tool call as the page saw it. Never carries inputs, contents or credentials. A call of a
 * registration that ended with its session (sign-out, another sign-in) is not reported at all: it
 * belongs to no session the page still has, and must not show in the next one.
 */
export interface ActivityEntry {
  tool: FunctionName;
  collection?: string;
  outcome: ActivityOutcome;
  code?: ErrorCode;
  requestId?: string;
  time: string;
}

/** The window surface the adapter listens to; injected in tests, `globalThis` by default. */
export interface WindowLike {
  navigator?: { onLine?: boolean };
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
}

export interface WebMcpAdapterOptions {
  /** Default: `detectModelContext()`. `null` means the platform has no WebMCP (`unsupported`). */
  modelContext?: DetectedModelContext | null;
  api: OwnerBrowserApi;
  reviewer: Reviewer;
  /** Default: `globalThis` (for `offline`/`online`/`pagehide`/`pageshow` and `navigator.onLine`). */
  window?: WindowLike | null;
  /** Re-sync by itself when the browser comes back online after an `offline` revocation. Default true. */
  resumeWhenOnline?: boolean;
  onStateChange?: (state: AdapterState) => void;
  onActivity?: (entry: ActivityEntry) => void;
  /** Clock for activity timestamps. */
  now?: () => Date;
}

export interface WebMcpAdapter {
  readonly state: AdapterState;
  /**
   * Registers the tools the server currently grants this session, for the session the caller knows
   * (`sessionGeneration` from `GET /api/owner/session`). Call after sign-in, enable and every
   * selection change. Resolves with the resulting state; never rejects.
   */
  sync(sessionGeneration: number): Promise<AdapterState>;
  /** Unregisters every tool and invalidates retained callbacks (state `disabled`). */
  disable(): void;
  /** Same, for the given cause: sign-out / session-replaced → `expired-session`, offline → `offline`. */
  revoke(reason: RevokeReason): void;
  /** Revokes (`teardown`) and stops listening to the window. The adapter cannot be used again. */
  dispose(): void;
}
