import { isValidOutput } from '@diosc/protocol/validators';
import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inputDigest } from '../../src/account/digest.js';
import {
  type CoreFixture,
  callerFor,
  itemRow,
  openCore,
  receiptRow,
  refusedWithoutChange,
} from './helpers.js';

describe.each(DIALECTS)('account core writes ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
  });
  afterEach(() => f.close());

  it('creates a storage item only if absent, with a committed receipt in the same store', async () => {
    f.clock.advance(1000);
    const input = {
      collection: 'notes',
      item: 'todo',
      requestId: 'req-create-1',
      ifNoneMatch: '*' as const,
      content: { title: 'To do', body: 'ship it', contentType: 'text/markdown' as const },
    };
    const { result, replayed } = await f.core.execute('item_write', input, f.owner);
    expect(replayed).toBe(false);
    expect(isValidOutput('item_write', result)).toBe(true);
    expect(result).toEqual({
      collection: 'notes',
      created: true,
      item: {
        id: 'todo',
        title: 'To do',
        version: '1',
        updatedAt: new Date(f.clock.now()).toISOString(),
        sizeBytes: 7,
      },
    });
    expect(await itemRow(f.store, f.accountId, 'notes', 'todo')).toMatchObject({
      content: 'ship it',
      content_type: 'text/markdown',
      version: 1,
      size_bytes: 7,
      updated_at: f.clock.now(),
    });
    const receipt = await receiptRow(f.store, f.owner.actor, 'req-create-1');
    expect(receipt).toMatchObject({
      account_id: f.accountId,
      function_name: 'item_write',
      input_digest: inputDigest('item_write', input),
      status: 'committed',
      completed_at: f.clock.now(),
    });
    expect(JSON.parse(receipt!.result!)).toEqual(result);
  });

  it('replaces a storage item only at the matching version, bumping the version', async () => {
    const { result } = await f.core.execute(
      'item_write',
      {
        collection: 'notes',
        item: 'groceries',
        requestId: 'req-replace-1',
        ifMatch: '1',
        content: { body: 'tea' },
      },
      f.owner,
    );
    expect(result).toMatchObject({
      created: false,
      item: { id: 'groceries', version: '2', title: 'Groceries' },
    });
    expect(await itemRow(f.store, f.accountId, 'notes', 'groceries')).toMatchObject({
      content: 'tea',
      content_type: 'text/markdown',
      version: 2,
      size_bytes: 3,
    });
  });

  it('deletes a storage item at the matching version', async () => {
    const { result } = await f.core.execute(
      'item_delete',
      { collection: 'notes', item: 'ideas', requestId: 'req-delete-1', ifMatch: '1' },
      f.owner,
    );
    expect(isValidOutput('item_delete', result)).toBe(true);
    expect(result).toEqual({ collection: 'notes', item: 'ideas', deleted: true });
    expect(await itemRow(f.store, f.accountId, 'notes', 'ideas')).toBeUndefined();
    expect(await receiptRow(f.store, f.owner.actor, 'req-delete-1')).toMatchObject({ status: 'committed' });
  });

  it('edits inbox message metadata and keeps body and sender', async () => {
    const before = await itemRow(f.store, f.accountId, 'inbox', 'welcome');
    const { result } = await f.core.execute(
      'item_write',
      {
        collection: 'inbox',
        item: 'welcome',
        requestId: 'req-meta-1',
        metadata: { read: true, flagged: true, labels: ['keep', 'work'] },
      },
      f.owner,
    );
    expect(result.item.metadata).toMatchObject({
      from: 'team@diosc.example',
      read: true,
      flagged: true,
      archived: false,
      labels: ['keep', 'work'],
    });
    const after = await itemRow(f.store, f.accountId, 'inbox', 'welcome');
    expect(after).toMatchObject({ content: before!.content, title: before!.title, version: 2 });
    expect(JSON.parse(after!.metadata!)).toMatchObject({ from: 'team@diosc.example', read: true });
    // A conditional metadata edit at a stale version is refused.
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_write',
          {
            collection: 'inbox',
            item: 'welcome',
            requestId: 'req-meta-2',
            ifMatch: '1',
            metadata: { read: false },
          },
          f.owner,
        ),
      'precondition_failed',
    );
  });

  it('refuses an inbox edit that would change the sender, the received time or the body', async () => {
    const before = await itemRow(f.store, f.accountId, 'inbox', 'welcome');
    const original = JSON.parse(before!.metadata!) as Record<string, unknown>;
    expect(original).toMatchObject({ from: 'team@diosc.example' });
    expect(original.receivedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // Each edit is valid but for the one forbidden key: current version, a real metadata change.
    const forged: Record<string, unknown>[] = [
      { from: 'ceo@diosc.example' },
      { receivedAt: '1970-01-01T00:00:00.000Z' },
      { receivedAt: original.receivedAt },
      { body: 'forged body' },
      { content: { body: 'forged body' } },
      { title: 'Forged title' },
    ];
    for (const [index, field] of forged.entries()) {
      await refusedWithoutChange(
        f,
        () =>
          f.core.execute(
            'item_write',
            {
              collection: 'inbox',
              item: 'welcome',
              requestId: `req-forge-${index}-0`,
              ifMatch: '1',
              metadata: { read: true, ...field },
            },
            f.owner,
          ),
        'invalid_input',
      );
      expect(await receiptRow(f.store, f.owner.actor, `req-forge-${index}-0`)).toBeUndefined();
    }
    // The body as content, beside a metadata edit or alone, is refused too.
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_write',
          {
            collection: 'inbox',
            item: 'welcome',
            requestId: 'req-forge-body-1',
            ifMatch: '1',
            content: { body: 'forged body' },
          },
          f.owner,
        ),
      'unsupported_input',
    );
    expect(await itemRow(f.store, f.accountId, 'inbox', 'welcome')).toEqual(before);
    // The same edit without the forbidden key goes through: the refusals above were for that key.
    const { result } = await f.core.execute(
      'item_write',
      {
        collection: 'inbox',
        item: 'welcome',
        requestId: 'req-forge-clean',
        ifMatch: '1',
        metadata: { read: true },
      },
      f.owner,
    );
    expect(result.item.metadata).toMatchObject({
      from: 'team@diosc.example',
      receivedAt: original.receivedAt,
    });
    expect(await itemRow(f.store, f.accountId, 'inbox', 'welcome')).toMatchObject({
      content: before!.content,
      version: 2,
    });
  });

  it('refuses inbox writes that try to change a body, create a message, or delete', async () => {
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_write',
          { collection: 'inbox', item: 'welcome', requestId: 'req-body-1', content: { body: 'forged' } },
          f.owner,
        ),
      'unsupported_input',
    );
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_write',
          {
            collection: 'inbox',
            item: 'new',
            requestId: 'req-body-2',
            ifNoneMatch: '*',
            metadata: { read: true },
          },
          f.owner,
        ),
      'unsupported_input',
    );
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_delete',
          { collection: 'inbox', item: 'welcome', requestId: 'req-body-3', ifMatch: '1' },
          f.owner,
        ),
      'unavailable',
    );
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_write',
          { collection: 'inbox', item: 'missing', requestId: 'req-body-4', metadata: { read: true } },
          f.owner,
        ),
      'not_found',
    );
  });

  it('refuses external writes and deletes as unavailable', async () => {
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_write',
          {
            collection: 'drive',
            item: 'roadmap',
            requestId: 'req-ext-1',
            ifMatch: '1',
            content: { body: 'x' },
          },
          f.owner,
        ),
      'unavailable',
    );
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_delete',
          { collection: 'drive', item: 'roadmap', requestId: 'req-ext-2', ifMatch: '1' },
          f.owner,
        ),
      'unavailable',
    );
  });

  it('refuses storage writes that break their condition or their shape', async () => {
    const write = (extra: Record<string, unknown>, item = 'groceries') =>
      f.core.execute('item_write', { collection: 'notes', item, requestId: 'req-cond-1', ...extra }, f.owner);
    await refusedWithoutChange(
      f,
      () => write({ ifNoneMatch: '*', content: { body: 'x' } }),
      'precondition_failed',
    );
    const stale = await refusedWithoutChange(
      f,
      () => write({ ifMatch: '7', content: { body: 'x' } }),
      'precondition_failed',
    );
    expect(stale.details).toEqual({ currentVersion: '1' });
    await refusedWithoutChange(
      f,
      () => write({ ifMatch: '1', content: { body: 'x' } }, 'absent'),
      'precondition_failed',
    );
    await refusedWithoutChange(f, () => write({ content: { body: 'x' } }), 'invalid_input');
    await refusedWithoutChange(
      f,
      () => write({ ifMatch: '1', metadata: { read: true } }),
      'unsupported_input',
    );
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_delete',
          { collection: 'notes', item: 'groceries', requestId: 'req-cond-2', ifMatch: '2' },
          f.owner,
        ),
      'precondition_failed',
    );
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_delete',
          { collection: 'notes', item: 'absent', requestId: 'req-cond-3', ifMatch: '1' },
          f.owner,
        ),
      'precondition_failed',
    );
  });

  it('refuses writes to ungranted functions and missing collections', async () => {
    const reader = callerFor(f.accountId, {
      kind: 'exact',
      collections: { notes: ['items_list', 'item_read'] },
    });
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_write',
          {
            collection: 'notes',
            item: 'x',
            requestId: 'req-grant-1',
            ifNoneMatch: '*',
            content: { body: 'x' },
          },
          reader,
        ),
      'not_granted',
    );
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_delete',
          { collection: 'notes', item: 'groceries', requestId: 'req-grant-2', ifMatch: '1' },
          reader,
        ),
      'not_granted',
    );
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_write',
          {
            collection: 'nope',
            item: 'x',
            requestId: 'req-grant-3',
            ifNoneMatch: '*',
            content: { body: 'x' },
          },
          f.owner,
        ),
      'not_found',
    );
  });

  it('refuses unknown tools and invalid input before touching the store', async () => {
    await refusedWithoutChange(f, () => f.core.execute('items_delete_all', {}, f.owner), 'unknown_tool');
    await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', { collection: 'notes', item: 'x', requestId: 'short' }, f.owner),
      'invalid_input',
    );
  });

  it('refuses a cancelled call before dispatch and after the claim, leaving no receipt', async () => {
    const aborted = { ...f.owner, signal: AbortSignal.abort() };
    const input = {
      collection: 'notes',
      item: 'c1',
      requestId: 'req-cancel-1',
      ifNoneMatch: '*',
      content: { body: 'x' },
    };
    await refusedWithoutChange(f, () => f.core.execute('item_write', input, aborted), 'cancelled');
    // Aborted after the core's own check, while the receipt is being claimed: the claim is released.
    // (A signal that turns aborted on its second read stands in for the transport's timing.)
    let reads = 0;
    const late = {
      get aborted() {
        reads += 1;
        return reads > 1;
      },
    } as AbortSignal;
    const lateRefusal = await refusedWithoutChange(
      f,
      () =>
        f.core.execute('item_write', { ...input, requestId: 'req-cancel-2' }, { ...f.owner, signal: late }),
      'cancelled',
    );
    expect(lateRefusal.message).toBe('Request "req-cancel-2" was cancelled before it was dispatched.');
    expect(reads).toBe(2);
    // The same request ID is free for a real attempt afterwards.
    const { replayed } = await f.core.execute('item_write', { ...input, requestId: 'req-cancel-2' }, f.owner);
    expect(replayed).toBe(false);
  });
});
