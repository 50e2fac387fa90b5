import { DioscError } from '@diosc/protocol';
import { FakeModelContext } from '@diosc/webmcp/testing';
import {
  type ActivityEntry,
  type AdapterState,
  createWebMcpAdapter,
  type DetectedModelContext,
  type ReviewRequest,
  type WebMcpAdapter,
} from '../../src/index.js';
import { FakeOwnerApi } from './fake-owner-api.js';

/** A window double: an EventTarget with a settable `navigator.onLine`. */
export function fakeWindow() {
  const target = new EventTarget();
  const navigator = { onLine: true };
  return Object.assign(target, {
    navigator,
    /** Dispatches `type`; `fields` are set on the event (`{ persisted: true }` for a bfcache `pageshow`). */
    fire(type: string, fields: Record<string, unknown> = {}) {
      target.dispatchEvent(Object.assign(new Event(type), fields));
    },
  });
}

/** A reviewer the test decides for: each review waits until `decide` is called. */
export function manualReviewer() {
  const pending: { request: ReviewRequest; resolve: (decision: 'accept' | 'reject') => void }[] = [];
  const reviewer = (request: ReviewRequest) =>
    new Promise<'accept' | 'reject'>((resolve) => {
      pending.push({ request, resolve });
    });
  return {
    reviewer,
    pending,
    /** Resolves once a review has been requested. */
    async next(): Promise<(typeof pending)[number]> {
      for (let i = 0; i < 50 && pending.length === 0; i++) await new Promise((r) => setTimeout(r, 0));
      const entry = pending.shift();
      if (!entry) throw new Error('no review was requested');
      return entry;
    },
  };
}

export function harness(platform: DetectedModelContext | null, api = new FakeOwnerApi()) {
  const states: AdapterState[] = [];
  const activity: ActivityEntry[] = [];
  const window = fakeWindow();
  const review = manualReviewer();
  const adapter: WebMcpAdapter = createWebMcpAdapter({
    modelContext: platform,
    api,
    reviewer: review.reviewer,
    window,
    onStateChange: (state) => states.push(state),
    onActivity: (entry) => activity.push(entry),
    now: () => new Date('2026-11-29T12:00:00.000Z'),
  });
  return { adapter, api, states, activity, window, review };
}

/** Awaits a promise that must reject with a Diosc error and returns that error. */
/** A harness on the current API whose adapter has already registered its tools. */
export async function registeredHarness() {
  const context = new FakeModelContext();
  const h = harness({ api: 'current', context });
  await h.adapter.sync(h.api.sessionGeneration);
  return { ...h, context };
}

export async function failure(promise: Promise<unknown>): Promise<DioscError> {
  try {
    await promise;
  } catch (error) {
    if (DioscError.isInstance(error)) return error;
    throw new Error(`expected a DioscError, got ${String(error)}`);
  }
  throw new Error('expected a rejection, got a result');
}

/**
 * Lets pending microtasks and zero-delay timers run. Enough to see everything the adapter does in
 * answer to an event that has already fired: it sets no timers of its own (browser-safe.test.ts
 * checks), so nothing it could do is scheduled later. To see that something does *not* happen, first
 * fire (or await, `gate.answered`) the event that would cause it.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
