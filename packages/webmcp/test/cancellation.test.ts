// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { failure, registeredHarness } from './support/harness.js';

const WRITE = {
  collection: 'notes',
  item: 'plan',
  requestId: 'req-00000003',
  ifNoneMatch: '*',
  content: { body: 'hello' },
};

describe('execution cancellation', () => {
  it('an already-aborted call sends nothing and says cancelled', async () => {
    const { context, api, activity } = await registeredHarness();
    const controller = new AbortController();
    controller.abort();
    expect(
      (await failure(context.invoke('items_list', { collection: 'notes' }, controller.signal))).code,
    ).toBe('cancelled');
    expect((await failure(context.invoke('item_write', WRITE, controller.signal))).code).toBe('cancelled');
    expect(api.calls.map((c) => c.method)).toEqual(['descriptors']);
    expect(activity.map((a) => a.outcome)).toEqual(['cancelled', 'cancelled']);
  });

  it('cancelling during review stops the undispatched write', async () => {
    const { context, api, review, adapter } = await registeredHarness();
    const controller = new AbortController();
    const pending = context.invoke('item_write', WRITE, controller.signal);
    const { request } = await review.next();
    controller.abort();
    expect(request.signal.aborted).toBe(true);
    expect((await failure(pending)).code).toBe('cancelled');
    expect(api.count('acknowledge') + api.count('execute')).toBe(0);
    // Cancelling one call does not touch the registration (separate lifetimes).
    expect(adapter.state.status).toBe('registered');
    expect(context.tools.size).toBe(4);
  });

  it('cancelling a read in flight forwards the abort and says cancelled', async () => {
    const { context, api } = await registeredHarness();
    const gate = api.hold('dispatch');
    const controller = new AbortController();
    const pending = context.invoke('items_list', { collection: 'notes' }, controller.signal);
    await gate.reached;
    const dispatched = api.signals.find((call) => call.method === 'dispatch')!.signal;
    expect(dispatched?.aborted).toBe(false);
    controller.abort();
    expect((await failure(pending)).code).toBe('cancelled');
    // The dispatch itself saw the abort (its request is cancelled, not left running).
    expect(dispatched?.aborted).toBe(true);
    expect(api.count('dispatch')).toBe(1);
  });

  it('cancelling after the write was sent reports uncertain with the request ID and never retries', async () => {
    const { context, api, review, activity } = await registeredHarness();
    const gate = api.hold('execute');
    const controller = new AbortController();
    const pending = context.invoke('item_write', WRITE, controller.signal);
    (await review.next()).resolve('accept');
    await gate.reached;
    expect(api.count('execute')).toBe(1);
    controller.abort();
    const error = await failure(pending);
    expect(error.code).toBe('uncertain');
    expect(error.details).toEqual({ requestId: 'req-00000003' });
    expect(error.message).toContain('req-00000003');
    gate.release();
    // The execute's answer (its abort) is back with the adapter: nothing is left that could retry.
    await gate.answered;
    expect(api.count('execute')).toBe(1);
    expect(api.count('prepare')).toBe(1);
    expect(activity.at(-1)).toMatchObject({ outcome: 'uncertain', requestId: 'req-00000003' });
  });

  it('a refusal that arrives after the agent cancelled a sent write is still uncertain', async () => {
    const { context, api, review, activity } = await registeredHarness();
    const gate = api.hold('execute', { answerDespiteAbort: true });
    api.refuseNext.set('execute', 'precondition_failed');
    const controller = new AbortController();
    const pending = context.invoke('item_write', WRITE, controller.signal);
    (await review.next()).resolve('accept');
    await gate.reached;
    controller.abort();
    gate.release();
    const error = await failure(pending);
    expect(error.code).toBe('uncertain');
    expect(error.details).toEqual({ requestId: 'req-00000003' });
    expect(activity.at(-1)).toMatchObject({ outcome: 'uncertain', code: 'uncertain' });
  });

  it('a write sent before sign-out is uncertain, not reported and not retried', async () => {
    const { context, api, review, adapter } = await registeredHarness();
    const gate = api.hold('execute', { answerDespiteAbort: true });
    const pending = context.invoke('item_write', WRITE);
    (await review.next()).resolve('accept');
    await gate.reached;
    adapter.revoke('sign-out');
    // The server answers anyway (the change committed); the revoked page must not report it.
    gate.release();
    const error = await failure(pending);
    expect(error.code).toBe('uncertain');
    expect(error.message).toContain('revoked after the change was sent');
    expect(error.details).toEqual({ requestId: 'req-00000003' });
    expect(error.message).not.toContain('created');
    // That late answer is the one event that could make the adapter try again: wait for it.
    await gate.answered;
    expect(api.count('execute')).toBe(1);
  });

  it('a finished call lets go of the registration: revoking later does not abort its request', async () => {
    const { context, api, adapter } = await registeredHarness();
    await context.invoke('items_list', { collection: 'notes' });
    const sent = api.signals.find((call) => call.method === 'dispatch')!.signal;
    adapter.disable();
    expect(sent?.aborted).toBe(false);
  });
});
