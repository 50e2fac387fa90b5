// @vitest-environment happy-dom
import { descriptorsFor } from '@diosc/protocol';
import { FakeLegacyModelContext, FakeModelContext } from '@diosc/webmcp/testing';
import { describe, expect, it } from 'vitest';
import { createWebMcpAdapter, detectModelContext } from '../src/index.js';
import { FakeOwnerApi } from './support/fake-owner-api.js';
import { harness } from './support/harness.js';

describe('capability detection', () => {
  it('prefers document.modelContext, falls back to an explicit legacy navigator.modelContext, else null', () => {
    const current = new FakeModelContext();
    const legacy = new FakeLegacyModelContext();
    expect(detectModelContext({ modelContext: current }, { modelContext: legacy })).toEqual({
      api: 'current',
      context: current,
    });
    expect(detectModelContext({}, { modelContext: legacy })).toEqual({ api: 'legacy', context: legacy });
    // A navigator object without unregisterTool is not the supported legacy shape.
    expect(detectModelContext({}, { modelContext: { registerTool() {} } })).toBeNull();
    expect(detectModelContext(document, navigator)).toBeNull();
  });

  it('reports unsupported without a platform and installs nothing globally', async () => {
    const { adapter, api } = harness(null);
    expect(adapter.state.status).toBe('unsupported');
    expect(await adapter.sync(api.sessionGeneration)).toMatchObject({ status: 'unsupported', tools: [] });
    expect(api.count('descriptors')).toBe(0);
    expect('modelContext' in document).toBe(false);
    expect('modelContext' in navigator).toBe(false);
  });

  it('detects by default from the real globals (none in this DOM) and reports unsupported', () => {
    const adapter = createWebMcpAdapter({
      api: new FakeOwnerApi(),
      reviewer: async () => 'reject',
      window: null,
    });
    expect(adapter.state.status).toBe('unsupported');
  });
});

describe('registration with the current API', () => {
  it('registers exactly the served descriptors, with their schemas and annotations from the hints', async () => {
    const context = new FakeModelContext();
    const { adapter, api, states } = harness({ api: 'current', context });
    expect(adapter.state.status).toBe('disabled');
    const state = await adapter.sync(api.sessionGeneration);
    const served = descriptorsFor(['collections_list', 'items_list', 'item_read', 'item_write']);
    expect(state).toMatchObject({ status: 'registered', generation: 1 });
    expect(state.tools).toEqual(served.map((d) => d.name));
    expect([...context.tools.keys()]).toEqual(served.map((d) => d.name));
    for (const descriptor of served) {
      const tool = context.tools.get(descriptor.name)!;
      expect(tool.description).toBe(descriptor.description);
      expect(tool.title).toBe(descriptor.title);
      expect(tool.inputSchema).toEqual(descriptor.inputSchema);
      expect(tool.annotations).toEqual({
        readOnlyHint: descriptor.hints.readOnly,
        consequentialHint: descriptor.hints.consequential,
        untrustedContentHint: descriptor.hints.untrustedContent,
      });
      expect(Object.keys(tool).sort()).toEqual([
        'annotations',
        'description',
        'execute',
        'inputSchema',
        'name',
        'title',
      ]);
    }
    expect(context.tools.get('item_write')!.annotations).toEqual({
      readOnlyHint: false,
      consequentialHint: true,
      untrustedContentHint: false,
    });
    // One registration-scoped signal, never exposedTo.
    expect(context.registrations.every((r) => r.optionKeys.join() === 'signal')).toBe(true);
    expect(states.at(-1)).toBe(adapter.state);
  });

  it('registers nothing the catalog does not define, whatever the server lists', async () => {
    const context = new FakeModelContext();
    const { adapter, api } = harness({ api: 'current', context });
    const [base] = descriptorsFor(['items_list']);
    api.extraTools = [{ ...base!, name: 'debug_eval' as 'items_list', description: 'Runs anything.' }];
    const state = await adapter.sync(api.sessionGeneration);
    expect(state.tools).toEqual(['collections_list', 'items_list', 'item_read', 'item_write']);
    expect(context.tools.has('debug_eval')).toBe(false);
  });

  it('keeps the registration when nothing changed and replaces it when the selection did', async () => {
    const context = new FakeModelContext();
    const { adapter, api } = harness({ api: 'current', context });
    await adapter.sync(api.sessionGeneration);
    await adapter.sync(api.sessionGeneration);
    expect(context.registrations).toHaveLength(4);
    await api.enableAccess([{ collection: 'notes', functions: ['items_list'] }]);
    const state = await adapter.sync(api.sessionGeneration);
    expect(state).toMatchObject({
      status: 'registered',
      generation: 2,
      tools: ['collections_list', 'items_list'],
    });
    expect([...context.tools.keys()]).toEqual(['collections_list', 'items_list']);
  });

  it('fails visibly when one registration is refused and removes every tool it had installed', async () => {
    const context = new FakeModelContext();
    context.refuse.set('item_read', 'NotAllowedError');
    const { adapter, api } = harness({ api: 'current', context });
    const state = await adapter.sync(api.sessionGeneration);
    expect(state.status).toBe('failure');
    expect(state.code).toBe('registration_failed');
    expect(state.reason).toContain('item_read');
    expect(state.reason).toContain('NotAllowedError');
    expect(state.tools).toEqual([]);
    // collections_list and items_list had been registered before the refusal; both are gone.
    expect(context.registrations.map((r) => r.name)).toEqual(['collections_list', 'items_list', 'item_read']);
    expect(context.tools.size).toBe(0);
  });

  it('reports disabled when the server says browser tools are off, expired-session on 401', async () => {
    const context = new FakeModelContext();
    const { adapter, api } = harness({ api: 'current', context });
    api.enabled = false;
    expect(await adapter.sync(api.sessionGeneration)).toMatchObject({ status: 'disabled', tools: [] });
    api.enabled = true;
    api.refuseNext.set('descriptors', 'session_expired');
    expect(await adapter.sync(api.sessionGeneration)).toMatchObject({
      status: 'expired-session',
      code: 'session_expired',
    });
    api.refuseNext.set('descriptors', 'internal');
    expect(await adapter.sync(api.sessionGeneration)).toMatchObject({ status: 'failure', code: 'internal' });
    expect(context.tools.size).toBe(0);
  });

  it('treats descriptors of another session generation as a replaced session', async () => {
    const context = new FakeModelContext();
    const { adapter, api } = harness({ api: 'current', context });
    const state = await adapter.sync(api.sessionGeneration - 1);
    expect(state.status).toBe('expired-session');
    expect(context.tools.size).toBe(0);
  });
});

describe('registration with the legacy API', () => {
  it('removes only its own names on cleanup; a foreign tool survives', async () => {
    const context = new FakeLegacyModelContext();
    context.registerTool({
      name: 'foreign_tool',
      description: 'Someone else’s',
      execute: async () => 'theirs',
    });
    const { adapter, api } = harness({ api: 'legacy', context });
    await adapter.sync(api.sessionGeneration);
    expect([...context.tools.keys()]).toEqual([
      'foreign_tool',
      'collections_list',
      'items_list',
      'item_read',
      'item_write',
    ]);
    adapter.disable();
    expect([...context.tools.keys()]).toEqual(['foreign_tool']);
    expect(context.unregistered).toEqual(['collections_list', 'items_list', 'item_read', 'item_write']);
    expect(await context.invoke('foreign_tool', {})).toBe('theirs');
  });

  it('a name clash fails visibly, cleans up its own tools and leaves the foreign tool of that name', async () => {
    const context = new FakeLegacyModelContext();
    const foreign = {
      name: 'item_read',
      description: 'Another script’s tool',
      execute: async () => 'theirs',
    };
    context.registerTool(foreign);
    const { adapter, api } = harness({ api: 'legacy', context });
    const state = await adapter.sync(api.sessionGeneration);
    expect(state).toMatchObject({ status: 'failure', code: 'registration_failed', tools: [] });
    expect(state.reason).toContain('InvalidStateError');
    expect([...context.tools.entries()]).toEqual([['item_read', foreign]]);
    expect(context.unregistered).toEqual(['collections_list', 'items_list']);
  });
});
