// Node, on purpose: a global without addEventListener, as in a worker without a window or a test runner.
import { FakeModelContext } from '@diosc/webmcp/testing';
import { describe, expect, it } from 'vitest';
import { createWebMcpAdapter } from '../src/index.js';
import { FakeOwnerApi } from './support/fake-owner-api.js';

describe('without a window to listen to', () => {
  it('the default window is none: the adapter registers and revokes on calls alone', async () => {
    expect(typeof (globalThis as { addEventListener?: unknown }).addEventListener).toBe('undefined');
    const context = new FakeModelContext();
    const api = new FakeOwnerApi();
    const adapter = createWebMcpAdapter({
      modelContext: { api: 'current', context },
      api,
      reviewer: async () => 'reject',
    });
    expect((await adapter.sync(api.sessionGeneration)).status).toBe('registered');
    adapter.dispose();
    expect(adapter.state.status).toBe('disabled');
    expect(context.tools.size).toBe(0);
  });
});
