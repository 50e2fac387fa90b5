import type { ErrorCode } from '@diosc/protocol';
import type { AdapterState, RevokeReason } from './adapter-types.js';
import type { LifecycleEffect, LifecycleEvent, LifecycleState, Named } from './lifecycle-types.js';
import { REVOKED, SESSION_CODES } from './revocation.js';

/**
 * The steps `transition` (lifecycle.ts) is made of. Each changes a draft of one step — the next
 * state and the effects so far — and nothing else.
 */

export const frozenView = (next: AdapterState): AdapterState =>
  Object.freeze({ ...next, tools: Object.freeze([...next.tools]) as string[] });

/** A step being built; only `transition` holds one, so it stays pure from outside. */
export interface Draft<T extends Named> {
  state: LifecycleState;
  effects: LifecycleEffect<T>[];
}

export function set<T extends Named>(d: Draft<T>, changes: Partial<LifecycleState>): void {
  d.state = { ...d.state, ...changes };
}

export function publish<T extends Named>(d: Draft<T>, view: AdapterState): void {
  set(d, { view: frozenView(view), resumeOn: null });
  d.effects.push({ type: 'publish', state: d.state.view });
}

/** Ends the live registration and any being installed: their callbacks answer `code` from now on. */
export function teardown<T extends Named>(d: Draft<T>, code: ErrorCode): void {
  const { live, registering } = d.state;
  set(d, { epoch: d.state.epoch + 1, live: null, registering: null });
  if (live) d.effects.push({ type: 'end', epoch: live.epoch, code });
  if (registering) d.effects.push({ type: 'end', epoch: registering.epoch, code });
}

export function revoke<T extends Named>(
  d: Draft<T>,
  reason: RevokeReason,
  detail: { reason?: string; code?: ErrorCode } = {},
): void {
  if (!d.state.supported) return;
  if (d.state.loading) d.effects.push({ type: 'cancel-load' });
  set(d, { seq: d.state.seq + 1, loading: null });
  const revoked = REVOKED[reason];
  teardown(d, detail.code && SESSION_CODES.has(detail.code) ? 'session_expired' : revoked.code);
  // Going offline and page teardown leave the session as it was: its tools come back on `online`
  // and on a back/forward-cache restore. Every other revocation ends what the last sync was for.
  const resumeOn = reason === 'offline' ? 'online' : reason === 'teardown' ? 'pageshow' : null;
  if (!resumeOn) set(d, { sessionGeneration: null });
  publish(d, {
    status: revoked.status,
    reason: detail.reason ?? revoked.reason,
    code: detail.code,
    tools: [],
  });
  set(d, { resumeOn });
}

export function sync<T extends Named>(d: Draft<T>, sessionGeneration: number, offline: boolean): void {
  if (!d.state.supported || d.state.disposed) return;
  set(d, { seq: d.state.seq + 1, sessionGeneration, resumeOn: null });
  if (offline) {
    revoke(d, 'offline');
    return;
  }
  set(d, { loading: { seq: d.state.seq, sessionGeneration } });
  d.effects.push({ type: 'load', seq: d.state.seq });
}

export function loaded<T extends Named>(d: Draft<T>, event: LifecycleEvent<T> & { type: 'loaded' }): void {
  const { loading, live } = d.state;
  if (d.state.disposed || loading?.seq !== event.seq) return;
  set(d, { loading: null });
  if (event.sessionGeneration !== loading.sessionGeneration) {
    revoke(d, 'session-replaced');
    return;
  }
  const names = event.tools.map((tool) => tool.name);
  if (
    live &&
    live.generation === event.generation &&
    live.sessionGeneration === loading.sessionGeneration &&
    live.names.join() === names.join()
  ) {
    return;
  }
  teardown(d, 'generation_changed');
  const { epoch } = d.state;
  set(d, {
    registering: { epoch, generation: event.generation, sessionGeneration: loading.sessionGeneration },
  });
  d.effects.push({ type: 'register', epoch, generation: event.generation, tools: event.tools });
}

export function loadFailed<T extends Named>(
  d: Draft<T>,
  event: LifecycleEvent<T> & { type: 'load-failed' },
): void {
  if (d.state.disposed || d.state.loading?.seq !== event.seq) return;
  set(d, { loading: null });
  if (event.offline) {
    revoke(d, 'offline');
    return;
  }
  const { code, reason } = event;
  if (code === 'feature_disabled') {
    featureDisabled(d, reason);
    return;
  }
  const sessionOver = SESSION_CODES.has(code);
  teardown(d, sessionOver ? 'session_expired' : 'not_enabled');
  if (code === 'not_enabled') {
    publish(d, { status: 'disabled', tools: [] });
    return;
  }
  if (sessionOver) {
    set(d, { sessionGeneration: null });
    publish(d, { status: 'expired-session', reason, code, tools: [] });
    return;
  }
  publish(d, { status: 'failure', reason, code, tools: [] });
}

/**
 * The server's release gate is closed: nothing stays registered, retained callbacks answer
 * `feature_disabled`, and the page says the operator has not turned the feature on. The session is
 * untouched; a later sync (after the operator turned it on) registers as usual.
 */
export function featureDisabled<T extends Named>(d: Draft<T>, reason?: string): void {
  teardown(d, 'feature_disabled');
  publish(d, { status: 'feature-disabled', reason, code: 'feature_disabled', tools: [] });
}

export function registered<T extends Named>(
  d: Draft<T>,
  event: LifecycleEvent<T> & { type: 'registered' },
): void {
  const { registering } = d.state;
  if (d.state.disposed || registering?.epoch !== event.epoch || d.state.epoch !== event.epoch) {
    // Overtaken while it was being installed: it never becomes visible.
    d.effects.push({ type: 'end', epoch: event.epoch, code: 'not_enabled' });
    return;
  }
  set(d, { registering: null, live: { ...registering, names: event.names } });
  publish(d, { status: 'registered', tools: [...event.names], generation: registering.generation });
}

export function resume<T extends Named>(d: Draft<T>, on: 'online' | 'pageshow', offline: boolean): void {
  const { resumeOn, sessionGeneration } = d.state;
  if (resumeOn === on && sessionGeneration !== null) sync(d, sessionGeneration, offline);
}
