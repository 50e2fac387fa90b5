// @vitest-environment happy-dom
import { FakeModelContext } from '@diosc/webmcp/testing';
import { describe, expect, it } from 'vitest';
import { failure, harness, registeredHarness, settle } from './support/harness.js';

/** The server's release gate and a disconnected provider source, as the adapter meets them. */

describe('the release gate (feature_disabled)', () => {
  it('registers nothing and shows the seventh state, distinct from an unsupported browser', async () => {
    const context = new FakeModelContext();
    const { adapter, api } = harness({ api: 'current', context });
    api.featureDisabled = true;
    const state = await adapter.sync(api.sessionGeneration);
    expect(state).toMatchObject({ status: 'feature-disabled', code: 'feature_disabled', tools: [] });
    expect(context.registrations).toEqual([]);
    const unsupported = harness(null);
    expect((await unsupported.adapter.sync(7)).status).toBe('unsupported');
    // Turned on by the operator later: the next sync registers as usual.
    api.featureDisabled = false;
    expect((await adapter.sync(api.sessionGeneration)).status).toBe('registered');
  });

  it('a call refused with feature_disabled removes the tools; retained callbacks answer it too', async () => {
    const { adapter, api, context } = await registeredHarness();
    const retained = context.tools.get('items_list')!.execute;
    api.featureDisabled = true;
    expect((await failure(context.invoke('items_list', { collection: 'notes' }))).code).toBe(
      'feature_disabled',
    );
    expect(adapter.state).toMatchObject({ status: 'feature-disabled', tools: [] });
    expect(context.tools.size).toBe(0);
    api.featureDisabled = false;
    expect((await failure(retained({ collection: 'notes' }))).code).toBe('feature_disabled');
  });
});

describe('a disconnected provider source', () => {
  it('a call answered source_revoked re-syncs: tools only the source offered are removed', async () => {
    const { adapter, api, context } = await registeredHarness();
    api.selection = [
      { collection: 'notes', functions: ['items_list'] },
      { collection: 'drive', functions: ['items_list', 'item_read'] },
    ];
    await adapter.sync(api.sessionGeneration);
    expect([...context.tools.keys()]).toEqual(['collections_list', 'items_list', 'item_read']);
    api.disconnected.add('drive');
    const error = await failure(context.invoke('item_read', { collection: 'drive', item: 'roadmap' }));
    expect(error.code).toBe('source_revoked');
    await settle();
    expect(adapter.state).toMatchObject({ status: 'registered', tools: ['collections_list', 'items_list'] });
    expect([...context.tools.keys()]).toEqual(['collections_list', 'items_list']);
    // The rest of the selection works; the disconnected collection keeps answering source_revoked.
    await expect(context.invoke('items_list', { collection: 'notes' })).resolves.toMatchObject({
      structuredContent: { collection: 'notes', items: [{ id: `${api.owner}-item` }] },
    });
    expect((await failure(context.invoke('items_list', { collection: 'drive' }))).code).toBe(
      'source_revoked',
    );
  });
});
