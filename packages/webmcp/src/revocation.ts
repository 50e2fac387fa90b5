import type { ErrorCode } from '@diosc/protocol';
import type { AdapterStatus, RevokeReason, WindowLike } from './adapter-types.js';

/** What each revocation leaves behind: the state shown, and the code retained callbacks answer with. */
export const REVOKED: Record<RevokeReason, { status: AdapterStatus; reason: string; code: ErrorCode }> = {
  disabled: { status: 'disabled', reason: 'Browser tools were turned off.', code: 'not_enabled' },
  'sign-out': {
    status: 'expired-session',
    reason: 'Signed out; sign in and enable browser tools again.',
    code: 'session_expired',
  },
  'session-replaced': {
    status: 'expired-session',
    reason: 'The session was replaced; sign in again.',
    code: 'session_expired',
  },
  offline: { status: 'offline', reason: 'The browser is offline.', code: 'not_enabled' },
  teardown: { status: 'disabled', reason: 'The page is closing.', code: 'not_enabled' },
};

export const ENDED_MESSAGES: Partial<Record<ErrorCode, string>> = {
  not_enabled: 'These browser tools are no longer registered.',
  generation_changed: 'These browser tools were replaced by a newer registration; use the current tools.',
};

/** Server refusals meaning the session is gone (not merely the tools). */
export const SESSION_CODES: ReadonlySet<ErrorCode> = new Set(['unauthenticated', 'session_expired']);

export function defaultWindow(): WindowLike | null {
  const candidate = globalThis as unknown as Partial<WindowLike>;
  return typeof candidate.addEventListener === 'function' ? (candidate as WindowLike) : null;
}

/**
 * Listens for the browser events that revoke or restore the local execution context: going offline
 * and coming back, page teardown (`pagehide`, which also covers entering the back/forward cache) and
 * the return from that cache (`pageshow` with `persisted`). Returns the function that stops listening.
 */
export function watchWindow(
  win: WindowLike,
  handlers: Record<'offline' | 'online' | 'pagehide' | 'pageshow', (event: Event) => void>,
): () => void {
  const entries = Object.entries(handlers);
  for (const [type, listener] of entries) win.addEventListener(type, listener);
  return () => {
    for (const [type, listener] of entries) win.removeEventListener(type, listener);
  };
}
