// @vitest-environment happy-dom
import { descriptorsFor, type ErrorCode } from '@diosc/protocol';
import { FakeModelContext } from '@diosc/webmcp/testing';
import { describe, expect, it, vi } from 'vitest';
import type { AdapterState, RevokeReason } from '../src/index.js';
import { FakeOwnerApi } from './support/fake-owner-api.js';
import { failure, fakeWindow, manualReviewer, settle } from './support/harness.js';

/**
 * The adapter's module-level tables — what each revocation shows, the messages of ended callbacks,
 * which refusals end a registration, which tools are the catalog's — as a freshly evaluated copy of
 * the package applies them (a second bundle does the same). Each test imports its own copy: the
 * tables are built at import, and the mutation run (which switches a mutant on only while a test
 * runs) can only see them changed in a module evaluated inside the test.
 */
async function freshAdapter() {
  vi.resetModules();
  const webmcp = await import('../src/index.js');
  const context = new FakeModelContext();
  const api = new FakeOwnerApi();
  const states: AdapterState[] = [];
  const adapter = webmcp.createWebMcpAdapter({
    modelContext: { api: 'current', context },
    api,
    reviewer: manualReviewer().reviewer,
    window: fakeWindow(),
    onStateChange: (state) => states.push(state),
  });
  await adapter.sync(api.sessionGeneration);
  expect(adapter.state.status).toBe('registered');
  return { adapter, api, context, states, retained: context.tools.get('items_list')!.execute };
}

const REVOCATIONS: [RevokeReason, AdapterState['status'], string, ErrorCode][] = [
  ['disabled', 'disabled', 'Browser tools were turned off.', 'not_enabled'],
  ['sign-out', 'expired-session', 'Signed out; sign in and enable browser tools again.', 'session_expired'],
  ['session-replaced', 'expired-session', 'The session was replaced; sign in again.', 'session_expired'],
  ['offline', 'offline', 'The browser is offline.', 'not_enabled'],
  ['teardown', 'disabled', 'The page is closing.', 'not_enabled'],
];

describe('what each revocation leaves', () => {
  it.each(REVOCATIONS)(
    '%s: shows %s with its reason; retained callbacks answer %s',
    async (why, status, reason, code) => {
      const { adapter, context, retained } = await freshAdapter();
      adapter.revoke(why);
      expect(adapter.state).toEqual({ status, reason, tools: [] });
      expect(context.tools.size).toBe(0);
      const error = await failure(retained({ collection: 'notes' }));
      expect(error.code).toBe(code);
      if (code === 'not_enabled')
        expect(error.message).toBe('not_enabled: These browser tools are no longer registered.');
    },
  );

  it('a registration replaced by a newer one: its callbacks say to use the current tools', async () => {
    const { adapter, api, retained } = await freshAdapter();
    await api.enableAccess([{ collection: 'notes', functions: ['items_list'] }]);
    await adapter.sync(api.sessionGeneration);
    expect((await failure(retained({ collection: 'notes' }))).message).toBe(
      'generation_changed: These browser tools were replaced by a newer registration; use the current tools.',
    );
  });
});

const REFUSALS: [ErrorCode, AdapterState['status']][] = [
  ['unauthenticated', 'expired-session'],
  ['session_expired', 'expired-session'],
  ['not_enabled', 'disabled'],
  ['feature_disabled', 'feature-disabled'],
];

describe('server refusals about the registration itself', () => {
  it.each(REFUSALS)('%s on a call ends the registration: %s', async (code, status) => {
    const { adapter, api, context } = await freshAdapter();
    api.refuseNext.set('dispatch', code);
    expect((await failure(context.invoke('items_list', { collection: 'notes' }))).code).toBe(code);
    expect(adapter.state).toMatchObject({ status, tools: [] });
    expect(context.tools.size).toBe(0);
  });

  it('source_revoked on a call loads the tools again', async () => {
    const { adapter, api, context } = await freshAdapter();
    api.refuseNext.set('dispatch', 'source_revoked');
    expect((await failure(context.invoke('items_list', { collection: 'notes' }))).code).toBe(
      'source_revoked',
    );
    await settle();
    expect(api.count('descriptors')).toBe(2);
    expect(adapter.state.status).toBe('registered');
  });

  it('a 401 while loading the tools is an expired session', async () => {
    const { adapter, api } = await freshAdapter();
    api.refuseNext.set('descriptors', 'unauthenticated');
    expect(await adapter.sync(api.sessionGeneration)).toMatchObject({
      status: 'expired-session',
      code: 'unauthenticated',
    });
  });
});

describe('what is registered and published', () => {
  it('only catalog tools, in a frozen state', async () => {
    const { adapter, api, context, states } = await freshAdapter();
    const [base] = descriptorsFor(['items_list']);
    api.extraTools = [{ ...base!, name: 'debug_eval' as 'items_list', description: 'Runs anything.' }];
    await api.enableAccess([{ collection: 'notes', functions: ['items_list'] }]);
    const state = await adapter.sync(api.sessionGeneration);
    expect(state.tools).toEqual(['collections_list', 'items_list']);
    expect(context.tools.has('debug_eval')).toBe(false);
    expect(states.every((published) => Object.isFrozen(published) && Object.isFrozen(published.tools))).toBe(
      true,
    );
  });
});
