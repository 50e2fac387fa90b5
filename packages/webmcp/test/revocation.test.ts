// @vitest-environment happy-dom

import { FakeModelContext } from '@diosc/webmcp/testing';
import { describe, expect, it } from 'vitest';
import type { ToolExecuteCallback } from '../src/index.js';
import { failure, harness, registeredHarness, settle } from './support/harness.js';

async function registered() {
  const h = await registeredHarness();
  const retained: ToolExecuteCallback = h.context.tools.get('items_list')!.execute;
  return { ...h, retained };
}

describe('retained callbacks', () => {
  it('are refused after disable, before anything is sent — even after re-enabling', async () => {
    const { adapter, api, context, retained, activity } = await registered();
    adapter.disable();
    expect(adapter.state).toMatchObject({ status: 'disabled', tools: [] });
    expect(context.tools.size).toBe(0);
    const error = await failure(retained({ collection: 'notes' }));
    expect(error.code).toBe('not_enabled');
    expect(activity.at(-1)).toMatchObject({ tool: 'items_list', outcome: 'refused', code: 'not_enabled' });
    // A fresh registration does not revive the old function reference.
    await adapter.sync(api.sessionGeneration);
    expect(adapter.state.status).toBe('registered');
    expect((await failure(retained({ collection: 'notes' }))).code).toBe('not_enabled');
    expect(api.count('dispatch')).toBe(0);
  });

  it('are refused after sign-out with session_expired, and fresh login needs a new sync', async () => {
    const { adapter, api, context, retained } = await registered();
    adapter.revoke('sign-out');
    expect(adapter.state).toMatchObject({ status: 'expired-session', tools: [] });
    expect(context.tools.size).toBe(0);
    expect((await failure(retained({ collection: 'notes' }))).code).toBe('session_expired');
    expect(api.count('dispatch')).toBe(0);
  });

  it('are refused with generation_changed once a new selection replaced their registration', async () => {
    const { adapter, api, context, retained } = await registered();
    await api.enableAccess([{ collection: 'notes', functions: ['items_list', 'item_read'] }]);
    await adapter.sync(api.sessionGeneration);
    expect(adapter.state).toMatchObject({ status: 'registered', generation: 2 });
    expect((await failure(retained({ collection: 'notes' }))).code).toBe('generation_changed');
    expect(api.count('dispatch')).toBe(0);
    // The current registration's own callback works.
    await expect(context.invoke('items_list', { collection: 'notes' })).resolves.toMatchObject({
      structuredContent: { collection: 'notes', items: [{ id: `${api.owner}-item` }] },
    });
  });

  it('a 401 from the server revokes the registration', async () => {
    const { adapter, api, context, retained } = await registered();
    api.refuseNext.set('dispatch', 'session_expired');
    expect((await failure(retained({ collection: 'notes' }))).code).toBe('session_expired');
    expect(adapter.state).toMatchObject({ status: 'expired-session', code: 'session_expired' });
    expect(context.tools.size).toBe(0);
  });
});

describe('offline and teardown', () => {
  it('offline removes the tools; back online re-syncs; pagehide removes them for good', async () => {
    const { adapter, api, context, window } = await registered();
    window.navigator.onLine = false;
    window.fire('offline');
    expect(adapter.state.status).toBe('offline');
    expect(context.tools.size).toBe(0);
    expect((await adapter.sync(api.sessionGeneration)).status).toBe('offline');
    window.navigator.onLine = true;
    window.fire('online');
    await settle();
    expect(adapter.state.status).toBe('registered');
    expect(context.tools.size).toBe(4);
    window.fire('pagehide');
    expect(adapter.state.status).toBe('disabled');
    expect(context.tools.size).toBe(0);
    adapter.dispose();
    expect((await adapter.sync(api.sessionGeneration)).status).toBe('disabled');
    expect(context.tools.size).toBe(0);
  });
});

describe('back/forward cache', () => {
  it('pageshow with persisted re-syncs what pagehide removed; old callbacks stay dead', async () => {
    const { adapter, api, context, window, retained } = await registered();
    window.fire('pagehide', { persisted: true });
    expect(adapter.state.status).toBe('disabled');
    expect(context.tools.size).toBe(0);
    // A fresh navigation's pageshow (not from the cache) changes nothing.
    window.fire('pageshow', { persisted: false });
    await settle();
    expect(adapter.state.status).toBe('disabled');
    expect(api.count('descriptors')).toBe(1);
    window.fire('pageshow', { persisted: true });
    await settle();
    expect(adapter.state).toMatchObject({ status: 'registered', generation: 1 });
    expect([...context.tools.keys()]).toEqual(['collections_list', 'items_list', 'item_read', 'item_write']);
    expect(api.count('descriptors')).toBe(2);
    expect((await failure(retained({ collection: 'notes' }))).code).toBe('not_enabled');
    await expect(context.invoke('items_list', { collection: 'notes' })).resolves.toMatchObject({
      structuredContent: { collection: 'notes', items: [{ id: `${api.owner}-item` }] },
    });
  });

  it('a restore after the session changed elsewhere fails closed; after sign-out it does nothing', async () => {
    const { adapter, api, context, window } = await registered();
    window.fire('pagehide', { persisted: true });
    api.sessionGeneration += 1;
    window.fire('pageshow', { persisted: true });
    await settle();
    expect(adapter.state.status).toBe('expired-session');
    expect(context.tools.size).toBe(0);

    const signedOut = await registered();
    signedOut.adapter.revoke('sign-out');
    signedOut.window.fire('pagehide', { persisted: true });
    signedOut.window.fire('pageshow', { persisted: true });
    await settle();
    expect(signedOut.adapter.state.status).toBe('disabled');
    expect(signedOut.api.count('descriptors')).toBe(1);
    expect(signedOut.context.tools.size).toBe(0);
  });
});

describe('late results after a session change', () => {
  it('a read answered after the session was replaced is discarded, never shown to the new session', async () => {
    const { adapter, api, context } = await registered();
    const gate = api.hold('dispatch', { answerDespiteAbort: true });
    const pending = context.invoke('items_list', { collection: 'notes' });
    await settle();
    expect(api.count('dispatch')).toBe(1);
    // Owner A signs out, owner B signs in and enables tools; then A's answer arrives.
    adapter.revoke('sign-out');
    api.owner = 'owner-b';
    api.sessionGeneration += 2;
    await adapter.sync(api.sessionGeneration);
    gate.release();
    const error = await failure(pending);
    expect(error.code).toBe('session_expired');
    expect(error.message).not.toContain('owner-a');
    // The new session's tools work and see only the new owner's data.
    const fresh = (await context.invoke('items_list', { collection: 'notes' })) as {
      content: { text: string }[];
    };
    expect(fresh.content[0]!.text).toContain('owner-b');
  });

  it('a registration that finishes after revocation does not come back', async () => {
    const context = new FakeModelContext();
    const { adapter, api } = harness({ api: 'current', context });
    const gate = api.hold('descriptors', { answerDespiteAbort: true });
    const syncing = adapter.sync(api.sessionGeneration);
    adapter.revoke('sign-out');
    gate.release();
    expect((await syncing).status).toBe('expired-session');
    expect(context.tools.size).toBe(0);
    expect(context.registrations).toHaveLength(0);
  });

  it('revoking during a sync aborts its descriptors request', async () => {
    const context = new FakeModelContext();
    const { adapter, api } = harness({ api: 'current', context });
    api.hold('descriptors');
    const syncing = adapter.sync(api.sessionGeneration);
    adapter.disable();
    expect(await syncing).toMatchObject({ status: 'disabled', tools: [] });
    expect(context.registrations).toHaveLength(0);
  });

  it('an older sync overtaken by a newer one is dropped', async () => {
    const context = new FakeModelContext();
    const { adapter, api } = harness({ api: 'current', context });
    const gate = api.hold('descriptors');
    const first = adapter.sync(api.sessionGeneration);
    await api.enableAccess([{ collection: 'notes', functions: ['items_list'] }]);
    const second = await adapter.sync(api.sessionGeneration);
    gate.release();
    await first;
    expect(second).toMatchObject({ status: 'registered', generation: 2 });
    expect(adapter.state).toBe(second);
    expect([...context.tools.keys()]).toEqual(['collections_list', 'items_list']);
  });

  it('a review accepted after sign-out executes nothing', async () => {
    const { adapter, api, context, review } = await registered();
    const pending = context.invoke('item_write', {
      collection: 'notes',
      item: 'plan',
      requestId: 'req-00000002',
      ifNoneMatch: '*',
      content: { body: 'x' },
    });
    const { request, resolve } = await review.next();
    adapter.revoke('sign-out');
    expect(request.signal.aborted).toBe(true);
    resolve('accept');
    expect((await failure(pending)).code).toBe('session_expired');
    expect(api.count('acknowledge') + api.count('execute')).toBe(0);
  });
});
