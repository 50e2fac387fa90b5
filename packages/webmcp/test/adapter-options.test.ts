// @vitest-environment happy-dom
import { FakeModelContext } from '@diosc/webmcp/testing';
import { describe, expect, it } from 'vitest';
import { createWebMcpAdapter, type WindowLike } from '../src/index.js';
import { FakeOwnerApi } from './support/fake-owner-api.js';
import { fakeWindow, harness, registeredHarness, settle } from './support/harness.js';

/** The adapter's options left out or set otherwise than the harness does, and what it listens to. */

const current = (context = new FakeModelContext()) => ({ api: 'current' as const, context });
const reject = async () => 'reject' as const;

/** A window double that knows which listeners are attached right now. */
function listeningWindow(): WindowLike & { attached: Set<string> } {
  const attached = new Set<string>();
  return {
    attached,
    navigator: { onLine: true },
    addEventListener: (type) => void attached.add(type),
    removeEventListener: (type) => void attached.delete(type),
  };
}

describe('optional callbacks and surfaces', () => {
  it('works without onStateChange, onActivity or a window', async () => {
    const context = new FakeModelContext();
    const api = new FakeOwnerApi();
    const adapter = createWebMcpAdapter({
      modelContext: current(context),
      api,
      reviewer: reject,
      window: null,
    });
    expect((await adapter.sync(api.sessionGeneration)).status).toBe('registered');
    await expect(context.invoke('items_list', { collection: 'notes' })).resolves.toMatchObject({
      structuredContent: { collection: 'notes' },
    });
    adapter.disable();
    expect(adapter.state.status).toBe('disabled');
    expect(context.tools.size).toBe(0);
  });

  it('a window without navigator counts as online', async () => {
    const api = new FakeOwnerApi();
    const win = listeningWindow();
    delete win.navigator;
    const adapter = createWebMcpAdapter({ modelContext: current(), api, reviewer: reject, window: win });
    expect((await adapter.sync(api.sessionGeneration)).status).toBe('registered');
  });

  it('listens to the page itself when no window is given', async () => {
    const api = new FakeOwnerApi();
    const adapter = createWebMcpAdapter({ modelContext: current(), api, reviewer: reject });
    try {
      expect((await adapter.sync(api.sessionGeneration)).status).toBe('registered');
      window.dispatchEvent(new Event('offline'));
      expect(adapter.state.status).toBe('offline');
    } finally {
      adapter.dispose();
    }
  });

  it('stamps activity with the current time by default', async () => {
    const context = new FakeModelContext();
    const api = new FakeOwnerApi();
    const times: string[] = [];
    const adapter = createWebMcpAdapter({
      modelContext: current(context),
      api,
      reviewer: reject,
      window: null,
      onActivity: (entry) => times.push(entry.time),
    });
    await adapter.sync(api.sessionGeneration);
    const before = Date.now();
    await context.invoke('items_list', { collection: 'notes' });
    const after = Date.now();
    expect(times).toHaveLength(1);
    expect(new Date(times[0]!).toISOString()).toBe(times[0]);
    expect(Date.parse(times[0]!)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(times[0]!)).toBeLessThanOrEqual(after);
  });
});

describe('window listeners', () => {
  it('resumeWhenOnline: false stays offline until the page syncs again', async () => {
    const context = new FakeModelContext();
    const api = new FakeOwnerApi();
    const win = fakeWindow();
    const adapter = createWebMcpAdapter({
      modelContext: current(context),
      api,
      reviewer: reject,
      window: win,
      resumeWhenOnline: false,
    });
    await adapter.sync(api.sessionGeneration);
    win.fire('offline');
    win.fire('online');
    await settle();
    expect(adapter.state.status).toBe('offline');
    expect(api.count('descriptors')).toBe(1);
    expect((await adapter.sync(api.sessionGeneration)).status).toBe('registered');
  });

  it('dispose stops listening; a browser without WebMCP never listens', async () => {
    const win = listeningWindow();
    const adapter = createWebMcpAdapter({
      modelContext: current(),
      api: new FakeOwnerApi(),
      reviewer: reject,
      window: win,
    });
    expect([...win.attached].sort()).toEqual(['offline', 'online', 'pagehide', 'pageshow']);
    adapter.dispose();
    expect(win.attached.size).toBe(0);

    const bare = listeningWindow();
    createWebMcpAdapter({ modelContext: null, api: new FakeOwnerApi(), reviewer: reject, window: bare });
    expect(bare.attached.size).toBe(0);
  });
});

describe('the descriptors request', () => {
  it('an unexpected failure is a failure state with code internal and its message', async () => {
    const { adapter, api } = harness(current());
    api.descriptors = () => Promise.reject(new TypeError('Failed to fetch'));
    expect(await adapter.sync(api.sessionGeneration)).toMatchObject({
      status: 'failure',
      code: 'internal',
      reason: 'Failed to fetch',
      tools: [],
    });
    api.descriptors = () => Promise.reject('no Error at all');
    expect(await adapter.sync(api.sessionGeneration)).toMatchObject({
      status: 'failure',
      code: 'internal',
      reason: 'The tool descriptors could not be loaded.',
    });
  });

  it('a newer sync aborts the older request, and a revocation aborts the newer one', async () => {
    const { adapter, api } = harness(current());
    const older = api.hold('descriptors');
    const first = adapter.sync(api.sessionGeneration);
    await older.reached;
    api.hold('descriptors');
    const second = adapter.sync(api.sessionGeneration);
    await older.answered;
    const [olderSignal, newerSignal] = api.signals.map((call) => call.signal);
    expect(olderSignal?.aborted).toBe(true);
    expect(newerSignal?.aborted).toBe(false);
    adapter.disable();
    expect(newerSignal?.aborted).toBe(true);
    await Promise.all([first, second]);
    expect(adapter.state.status).toBe('disabled');
  });
});

describe('a review made moot by a revocation', () => {
  it('its signal aborts with an AbortError that says the tools were revoked', async () => {
    const { context, adapter, review } = await registeredHarness();
    const pending = context.invoke('item_write', {
      collection: 'notes',
      item: 'plan',
      requestId: 'req-moot-1',
      ifNoneMatch: '*',
      content: { body: 'x' },
    });
    const { request } = await review.next();
    adapter.disable();
    expect(request.signal.reason).toBeInstanceOf(DOMException);
    expect(request.signal.reason).toMatchObject({
      name: 'AbortError',
      message: 'The Diosc browser tools were revoked.',
    });
    await expect(pending).rejects.toMatchObject({ code: 'not_enabled' });
  });
});
