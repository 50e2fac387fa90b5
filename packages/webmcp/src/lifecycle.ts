import {
  type Draft,
  featureDisabled,
  frozenView,
  loaded,
  loadFailed,
  publish,
  registered,
  resume,
  revoke,
  set,
  sync,
} from './lifecycle-steps.js';
import type { LifecycleEvent, LifecycleState, LifecycleStep, Named } from './lifecycle-types.js';
import { SESSION_CODES } from './revocation.js';

/** The lifecycle before anything happened. */
export function initialLifecycle(supported: boolean): LifecycleState {
  return {
    supported,
    disposed: false,
    view: frozenView({ status: supported ? 'disabled' : 'unsupported', tools: [] }),
    epoch: 0,
    seq: 0,
    loading: null,
    registering: null,
    live: null,
    sessionGeneration: null,
    resumeOn: null,
  };
}

/** Whether a callback of the registration of `epoch` may still act: asked at call time and after every await. */
export function isLive(state: LifecycleState, epoch: number): boolean {
  return !state.disposed && state.epoch === epoch && state.live?.epoch === epoch;
}

/**
 * The registration lifecycle: the next state and what to do, for one event. Pure — no clock, no
 * platform, no network — so every path is a table of data (`lifecycle.test.ts`); `createWebMcpAdapter`
 * is the shell that performs the effects and reports their results back as events.
 *
 * @example
 * let state = initialLifecycle(true);
 * const step = transition(state, { type: 'sync', sessionGeneration: 7, offline: false });
 * // step.effects: [{ type: 'load', seq: 1 }]
 */
export function transition<T extends Named>(
  state: LifecycleState,
  event: LifecycleEvent<T>,
): LifecycleStep<T> {
  const d: Draft<T> = { state, effects: [] };
  switch (event.type) {
    case 'sync':
      sync(d, event.sessionGeneration, event.offline);
      break;
    case 'loaded':
      loaded(d, event);
      break;
    case 'load-failed':
      loadFailed(d, event);
      break;
    case 'registered':
      registered(d, event);
      break;
    case 'registration-failed':
      if (d.state.disposed || d.state.epoch !== event.epoch) break;
      set(d, { registering: null });
      publish(d, { status: 'failure', reason: event.reason, code: 'registration_failed', tools: [] });
      break;
    case 'revoke':
      revoke(d, event.reason, event.detail);
      break;
    case 'refused':
      if (d.state.epoch !== event.epoch) break;
      if (event.code === 'feature_disabled') {
        featureDisabled(d, event.reason);
        break;
      }
      revoke(d, SESSION_CODES.has(event.code) ? 'session-replaced' : 'disabled', {
        reason: event.reason,
        code: event.code,
      });
      break;
    case 'resync':
      // Only the live registration's own calls can ask, and only while its session is known.
      if (d.state.disposed || d.state.live?.epoch !== event.epoch || d.state.sessionGeneration === null)
        break;
      sync(d, d.state.sessionGeneration, event.offline);
      break;
    case 'online':
      resume(d, 'online', event.offline);
      break;
    case 'pageshow':
      if (event.persisted) resume(d, 'pageshow', event.offline);
      break;
    case 'dispose':
      if (d.state.disposed) break;
      revoke(d, 'teardown');
      set(d, { disposed: true, resumeOn: null });
      d.effects.push({ type: 'unwatch' });
      break;
  }
  return d;
}
