import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CoreFixture, itemRow, openCore, refusedWithoutChange } from './helpers.js';

/**
 * An account over its quota (the operator lowered it below what the account holds) may still
 * shrink: only a write that grows it is refused, so the owner can always get back under.
 */
describe.each(DIALECTS)('an account over its quota ($name)', (dialect) => {
  let f: CoreFixture;
  let item: { id: string; version: string; body: string };
  beforeEach(async () => {
    f = await openCore(dialect, { maxItemsPerAccount: 1, maxBytesPerAccount: 10 });
    const { result } = await f.core.execute('items_list', { collection: 'notes' }, f.owner);
    const first = result.items[0]!;
    const row = await itemRow(f.store, f.accountId, 'notes', first.id);
    item = { id: first.id, version: String(row!.version), body: row!.content };
    expect(row!.content.length).toBeGreaterThan(2);
  });
  afterEach(() => f.close());

  const replace = (requestId: string, body: string, ifMatch = item.version) => ({
    collection: 'notes',
    item: item.id,
    requestId,
    ifMatch,
    content: { body },
  });

  it('replaces an item with as many bytes, then with fewer, and deletes one', async () => {
    const same = 'x'.repeat(Buffer.byteLength(item.body, 'utf8'));
    await f.core.execute('item_write', replace('req-quota-1', same), f.owner);
    const shorter = await f.core.execute(
      'item_write',
      replace('req-quota-2', 'ab', String(Number(item.version) + 1)),
      f.owner,
    );
    expect(shorter.result.item).toMatchObject({ id: item.id, sizeBytes: 2 });
    const deleted = await f.core.execute(
      'item_delete',
      {
        collection: 'notes',
        item: item.id,
        requestId: 'req-quota-3',
        ifMatch: String(Number(item.version) + 2),
      },
      f.owner,
    );
    expect(deleted.result).toMatchObject({ deleted: true });
  });

  it('refuses a write that grows it, naming the limit', async () => {
    const bigger = await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', replace('req-quota-4', `${item.body}more`), f.owner),
      'quota_exceeded',
    );
    expect(bigger.message).toMatch(/^The account may hold at most (1 items|10 bytes)\.$/);
    const another = await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_write',
          {
            collection: 'notes',
            item: 'one-more',
            requestId: 'req-quota-5',
            ifNoneMatch: '*',
            content: { body: '' },
          },
          f.owner,
        ),
      'quota_exceeded',
    );
    expect(another.message).toBe('The account may hold at most 1 items.');
  });
});
