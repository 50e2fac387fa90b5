import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CoreFixture, callerFor, openCore, refusal, refusedWithoutChange, snapshot } from './helpers.js';

/** `core.preview`: the effects of a write or delete, through the checks execution applies, doing nothing. */
describe.each(DIALECTS)('account core preview ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect, { callsPerMinutePerCaller: 1 });
  });
  afterEach(() => f.close());

  const notes = { id: 'notes', title: 'Notes', kind: 'storage' };

  it('describes a create, a replace, a metadata edit and a delete against the current item', async () => {
    const create = {
      collection: 'notes',
      item: 'todo',
      requestId: 'req-preview-1',
      ifNoneMatch: '*',
      content: { body: 'ship it' },
    };
    expect(await f.core.preview('item_write', create, f.owner)).toEqual({
      collection: notes,
      item: 'todo',
      action: 'create',
      before: null,
      after: { title: 'todo', content: 'ship it', contentType: 'text/plain' },
    });

    const replace = await f.core.preview(
      'item_write',
      {
        collection: 'notes',
        item: 'groceries',
        requestId: 'req-preview-2',
        ifMatch: '1',
        content: { body: '- tea' },
      },
      f.owner,
    );
    expect(replace).toMatchObject({ collection: notes, item: 'groceries', action: 'replace' });
    expect(replace.before).toMatchObject({ id: 'groceries', version: '1', contentType: 'text/markdown' });
    // What the replace keeps of the item (title, type) is what the preview shows.
    expect(replace.after).toEqual({ title: 'Groceries', content: '- tea', contentType: 'text/markdown' });

    const flag = await f.core.preview(
      'item_write',
      { collection: 'inbox', item: 'welcome', requestId: 'req-preview-3', metadata: { flagged: true } },
      f.owner,
    );
    expect(flag.action).toBe('metadata');
    expect(flag.collection).toEqual({ id: 'inbox', title: 'Inbox', kind: 'inbox' });
    expect(flag.after).toEqual({ metadata: { ...flag.before?.metadata, flagged: true } });
    expect(flag.before?.metadata?.from).toBe('team@diosc.example');

    expect(
      await f.core.preview(
        'item_delete',
        { collection: 'notes', item: 'ideas', requestId: 'req-preview-4', ifMatch: '1' },
        f.owner,
      ),
    ).toMatchObject({
      collection: notes,
      item: 'ideas',
      action: 'delete',
      after: null,
      before: { id: 'ideas' },
    });
  });

  it('changes nothing, claims no request ID and takes no call-rate slot', async () => {
    const input = {
      collection: 'notes',
      item: 'todo',
      requestId: 'req-preview-5',
      ifNoneMatch: '*',
      content: { body: 'x' },
    };
    const before = await snapshot(f.store);
    await f.core.preview('item_write', input, f.owner);
    await f.core.preview('item_write', input, f.owner);
    expect(await snapshot(f.store)).toEqual(before);
    // The limit is one call a minute: previews did not spend it, and the request ID is still fresh.
    expect(await f.core.execute('item_write', input, f.owner)).toMatchObject({ replayed: false });
    await refusal(f.core.execute('item_write', input, f.owner), 'rate_limited');
  });

  it('refuses what execution would refuse, in the same order, before reading anything', async () => {
    const stranger = callerFor(f.accountId, { kind: 'exact', collections: { notes: ['item_read'] } });
    const write = (collection: string, extra: Record<string, unknown>) => ({
      collection,
      item: 'welcome',
      requestId: 'req-preview-6',
      ...extra,
    });
    // The grant first: an ungranted caller learns nothing about whether the collection exists.
    await refusedWithoutChange(
      f,
      () => f.core.preview('item_write', write('nowhere', { metadata: { read: true } }), stranger),
      'not_granted',
    );
    await refusedWithoutChange(
      f,
      () => f.core.preview('item_write', write('nowhere', { metadata: { read: true } }), f.owner),
      'not_found',
    );
    await refusedWithoutChange(
      f,
      () => f.core.preview('item_delete', write('inbox', { ifMatch: '1' }), f.owner),
      'unavailable',
    );
    await refusedWithoutChange(
      f,
      () => f.core.preview('item_write', write('drive', { ifMatch: '1', content: { body: 'x' } }), f.owner),
      'unavailable',
    );
    await refusedWithoutChange(
      f,
      () => f.core.preview('item_write', write('inbox', { content: { body: 'x' } }), f.owner),
      'unsupported_input',
    );
    await refusedWithoutChange(
      f,
      () => f.core.preview('item_write', write('notes', { content: { body: 'x' } }), f.owner),
      'invalid_input',
    );
    await refusedWithoutChange(
      f,
      () => f.core.preview('item_write', write('notes', { extra: true }), f.owner),
      'invalid_input',
    );
    await refusedWithoutChange(
      f,
      () => f.core.preview('items_list', { collection: 'notes' }, f.owner),
      'invalid_input',
    );
    await refusedWithoutChange(f, () => f.core.preview('item_drop', {}, f.owner), 'unknown_tool');
  });
});
