import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CoreFixture, callerFor, openCore, refusedWithoutChange, snapshot } from './helpers.js';

/**
 * `core.replayOf`: what a review asks first — has this caller already committed this exact write
 * under its request ID? The stored result if so, null otherwise; never a run, never a write.
 */
const create = (requestId: string, body = 'first') => ({
  collection: 'notes',
  item: 'asked-again',
  requestId,
  ifNoneMatch: '*' as const,
  content: { body },
});

describe.each(DIALECTS)('core.replayOf ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
  });
  afterEach(() => f.close());

  it('answers the committed result of the same write, and changes nothing', async () => {
    const done = await f.core.execute('item_write', create('req-asked-1'), f.owner);
    const before = await snapshot(f.store);
    const replay = await f.core.replayOf('item_write', create('req-asked-1'), f.owner);
    expect(replay).toEqual({ name: 'item_write', result: done.result, replayed: true });
    expect(await snapshot(f.store)).toEqual(before);
  });

  it('is null for a request ID never used, and for another actor’s ID', async () => {
    expect(await f.core.replayOf('item_write', create('req-asked-2'), f.owner)).toBeNull();
    await f.core.execute('item_write', create('req-asked-3'), f.owner);
    const other = { ...f.owner, actor: 'owner:other-tab' };
    expect(await f.core.replayOf('item_write', create('req-asked-3'), other)).toBeNull();
  });

  it('is null while the claim is still in flight: nothing was committed yet', async () => {
    await f.core.receipts.claim(
      { actor: f.owner.actor, requestId: 'req-asked-4' },
      f.accountId,
      'item_write',
      'x',
    );
    expect(await f.core.replayOf('item_write', create('req-asked-4'), f.owner)).toBeNull();
  });

  it('refuses another input, or another tool, under a committed ID as request_id_collision', async () => {
    await f.core.execute('item_write', create('req-asked-5'), f.owner);
    const changed = await refusedWithoutChange(
      f,
      () => f.core.replayOf('item_write', create('req-asked-5', 'second'), f.owner),
      'request_id_collision',
    );
    expect(changed.message).toContain('req-asked-5');
    const deleting = { collection: 'notes', item: 'asked-again', requestId: 'req-asked-5', ifMatch: '1' };
    await refusedWithoutChange(
      f,
      () => f.core.replayOf('item_delete', deleting, f.owner),
      'request_id_collision',
    );
  });

  it('checks authority first: a caller without the function learns nothing, even of its own receipt', async () => {
    await f.core.execute('item_write', create('req-asked-6'), f.owner);
    const reader = callerFor(
      f.accountId,
      { kind: 'exact', collections: { notes: ['items_list'] } },
      f.owner.actor,
    );
    await refusedWithoutChange(
      f,
      () => f.core.replayOf('item_write', create('req-asked-6'), reader),
      'not_granted',
    );
  });

  it('refuses a read: nothing is replayed for it', async () => {
    const error = await refusedWithoutChange(
      f,
      () => f.core.replayOf('items_list', { collection: 'notes' }, f.owner),
      'invalid_input',
    );
    expect(error.message).toBe('items_list is a read; nothing is replayed.');
  });

  it('preview refuses a read the same way', async () => {
    const error = await refusedWithoutChange(
      f,
      () => f.core.preview('items_list', { collection: 'notes' }, f.owner),
      'invalid_input',
    );
    expect(error.message).toBe('items_list is a read; there is no change to preview.');
  });
});
