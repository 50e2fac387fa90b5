import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCollection, findCollection, listCollections } from '../../src/account/collections.js';
import { type CoreFixture, openCore, refusal, refusedWithoutChange, snapshot } from './helpers.js';

/** The owner disconnects an external collection's provider source: once, for good, only that. */
describe.each(DIALECTS)('core.disconnectSource ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
  });
  afterEach(() => f.close());

  it('disconnects once: every later call naming it is source_revoked; a second disconnect changes nothing', async () => {
    const first = await f.core.disconnectSource(f.accountId, 'drive');
    expect(first).toEqual({
      collection: { id: 'drive', kind: 'external', title: 'Drive (mirror)' },
      disconnectedAt: new Date(f.clock.now()).toISOString(),
      changed: true,
    });
    const read = await refusal(
      f.core.execute('items_list', { collection: 'drive' }, f.owner),
      'source_revoked',
    );
    expect(read.message).toBe('The provider source of collection "drive" has been disconnected.');

    f.clock.advance(60_000);
    const before = await snapshot(f.store);
    const again = await f.core.disconnectSource(f.accountId, 'drive');
    expect(again).toEqual({ ...first, changed: false });
    expect(await snapshot(f.store)).toEqual(before);
  });

  it('refuses a collection that does not exist, an inbox and hosted storage, changing nothing', async () => {
    const missing = await refusedWithoutChange(
      f,
      () => f.core.disconnectSource(f.accountId, 'nowhere'),
      'not_found',
    );
    expect(missing.message).toBe('There is no collection "nowhere".');
    const inbox = await refusedWithoutChange(
      f,
      () => f.core.disconnectSource(f.accountId, 'inbox'),
      'unavailable',
    );
    expect(inbox.message).toBe(
      'Collection "inbox" is an inbox; only external collections have a provider source to disconnect.',
    );
    const notes = await refusedWithoutChange(
      f,
      () => f.core.disconnectSource(f.accountId, 'notes'),
      'unavailable',
    );
    expect(notes.message).toBe(
      'Collection "notes" is hosted storage; only external collections have a provider source to disconnect.',
    );
  });
});

describe.each(DIALECTS)('the collections of an account ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
  });
  afterEach(() => f.close());

  it('lists them by ID with kind, title, provider and when their source was disconnected', async () => {
    await createCollection(f.store.db, f.accountId, { id: 'archive', kind: 'storage', title: 'Archive' }, 1);
    await f.core.disconnectSource(f.accountId, 'drive');
    expect(await listCollections(f.store.db, f.accountId)).toEqual([
      { id: 'archive', kind: 'storage', title: 'Archive', provider: null, disconnectedAt: null },
      {
        id: 'drive',
        kind: 'external',
        title: 'Drive (mirror)',
        provider: 'Example Drive',
        disconnectedAt: f.clock.now(),
      },
      { id: 'inbox', kind: 'inbox', title: 'Inbox', provider: null, disconnectedAt: null },
      { id: 'notes', kind: 'storage', title: 'Notes', provider: null, disconnectedAt: null },
    ]);
    expect(await listCollections(f.store.db, 'another-account')).toEqual([]);
  });

  it('finds one by ID within the account only', async () => {
    expect(await findCollection(f.store.db, f.accountId, 'notes')).toEqual({
      id: 'notes',
      kind: 'storage',
      title: 'Notes',
    });
    expect(await findCollection(f.store.db, f.accountId, 'nowhere')).toBeUndefined();
    expect(await findCollection(f.store.db, 'another-account', 'notes')).toBeUndefined();
  });
});
