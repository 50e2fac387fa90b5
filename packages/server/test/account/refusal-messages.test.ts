import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CoreFixture, callerFor, openCore, refusedWithoutChange } from './helpers.js';

/**
 * A refusal's code is for branching; its message is what the agent reads to fix the call: it names
 * the collection, item, function or version involved. Each is refused without a change.
 */
describe.each(DIALECTS)('refusal messages ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
  });
  afterEach(() => f.close());

  const create = (item: string, requestId: string) => ({
    collection: 'notes',
    item,
    requestId,
    ifNoneMatch: '*' as const,
    content: { body: 'x' },
  });

  it('authority: the function and collection not granted, the collection missing, the kind’s limits', async () => {
    const reader = callerFor(f.accountId, { kind: 'exact', collections: { notes: ['items_list'] } });
    const ungranted = await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', create('plan', 'req-msg-1'), reader),
      'not_granted',
    );
    expect(ungranted.message).toBe('item_write on collection "notes" is not granted to this caller.');
    const missing = await refusedWithoutChange(
      f,
      () => f.core.execute('items_list', { collection: 'nowhere' }, f.owner),
      'not_found',
    );
    expect(missing.message).toBe('There is no collection "nowhere".');
    const external = await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', { ...create('plan', 'req-msg-2'), collection: 'drive' }, f.owner),
      'unavailable',
    );
    expect(external.message).toMatch(/^item_write: ./);
    const nothing = callerFor(f.accountId, { kind: 'exact', collections: {} });
    const none = await refusedWithoutChange(
      f,
      () => f.core.execute('collections_list', {}, nothing),
      'not_granted',
    );
    expect(none.message).toBe('This caller is not granted any collection.');
  });

  it('storage writes: which condition failed, and how to meet it', async () => {
    await f.core.execute('item_write', create('plan', 'req-msg-3'), f.owner);
    const exists = await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', create('plan', 'req-msg-4'), f.owner),
      'precondition_failed',
    );
    expect(exists.message).toBe('Item "plan" already exists; replace it with ifMatch.');
    const replace = { collection: 'notes', item: 'plan', ifMatch: '7', content: { body: 'y' } };
    const stale = await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', { ...replace, requestId: 'req-msg-5' }, f.owner),
      'precondition_failed',
    );
    expect(stale.message).toBe('Item "plan" is at version 1, not 7.');
    expect(stale.details).toEqual({ currentVersion: '1' });
    const absent = await refusedWithoutChange(
      f,
      () =>
        f.core.execute('item_write', { ...replace, item: 'nothing-here', requestId: 'req-msg-6' }, f.owner),
      'precondition_failed',
    );
    expect(absent.message).toBe('Item "nothing-here" does not exist; create it with ifNoneMatch "*".');
  });

  it('deletes: a gone item and a moved-on version, with the current version in the details', async () => {
    await f.core.execute('item_write', create('plan', 'req-msg-7'), f.owner);
    const moved = await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_delete',
          { collection: 'notes', item: 'plan', requestId: 'req-msg-8', ifMatch: '4' },
          f.owner,
        ),
      'precondition_failed',
    );
    expect(moved.message).toBe('Item "plan" is at version 1, not 4.');
    expect(moved.details).toEqual({ currentVersion: '1' });
    const gone = await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_delete',
          { collection: 'notes', item: 'gone', requestId: 'req-msg-9', ifMatch: '1' },
          f.owner,
        ),
      'precondition_failed',
    );
    expect(gone.message).toBe('Item "gone" does not exist in "notes" (already deleted?).');
  });

  it('inbox edits: the missing message, named', async () => {
    const missing = await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_write',
          { collection: 'inbox', item: 'no-such-mail', requestId: 'req-msg-10', metadata: { read: true } },
          f.owner,
        ),
      'not_found',
    );
    expect(missing.message).toBe('There is no message "no-such-mail" in "inbox".');
  });

  it('a request ID used with other input: names the ID', async () => {
    await f.core.execute('item_write', create('plan', 'req-msg-11'), f.owner);
    const collision = await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', create('other', 'req-msg-11'), f.owner),
      'request_id_collision',
    );
    expect(collision.message).toBe(
      'Request ID "req-msg-11" was already used with different input; choose a new ID for a new change.',
    );
  });
});
