import { PAGE_LIMIT_MAX } from '@diosc/protocol';
import { isValidOutput } from '@diosc/protocol/validators';
import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccounts } from '../../src/account/accounts.js';
import { createCollection } from '../../src/account/collections.js';
import { encodeCursor } from '../../src/account/cursor.js';
import { hashPassword } from '../../src/auth/passwords.js';
import { type CoreFixture, callerFor, insertItems, openCore, refusedWithoutChange } from './helpers.js';

describe.each(DIALECTS)('account core reads ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
  });
  afterEach(() => f.close());

  it('collections_list returns every collection with the functions its kind supports', async () => {
    const { result, replayed } = await f.core.execute('collections_list', {}, f.owner);
    expect(replayed).toBe(false);
    expect(isValidOutput('collections_list', result)).toBe(true);
    expect(result).toEqual({
      collections: [
        {
          id: 'drive',
          kind: 'external',
          title: 'Drive (mirror)',
          itemCount: 3,
          functions: ['items_list', 'item_read'],
        },
        {
          id: 'inbox',
          kind: 'inbox',
          title: 'Inbox',
          itemCount: 6,
          functions: ['items_list', 'item_read', 'item_write'],
        },
        {
          id: 'notes',
          kind: 'storage',
          title: 'Notes',
          itemCount: 3,
          functions: ['items_list', 'item_read', 'item_write', 'item_delete'],
        },
      ],
      nextCursor: null,
    });
  });

  it('collections_list filters rows and functions by an exact grant', async () => {
    const caller = callerFor(f.accountId, {
      kind: 'exact',
      collections: { notes: ['items_list', 'item_delete'], inbox: [] },
    });
    const { result } = await f.core.execute('collections_list', {}, caller);
    expect(result.collections).toEqual([
      {
        id: 'notes',
        kind: 'storage',
        title: 'Notes',
        itemCount: 3,
        functions: ['items_list', 'item_delete'],
      },
    ]);
  });

  it('collections_list pages with a cursor', async () => {
    const first = await f.core.execute('collections_list', { limit: 2 }, f.owner);
    expect(first.result.collections.map((c) => c.id)).toEqual(['drive', 'inbox']);
    expect(first.result.nextCursor).toEqual(expect.any(String));
    const second = await f.core.execute(
      'collections_list',
      { limit: 2, cursor: first.result.nextCursor! },
      f.owner,
    );
    expect(second.result.collections.map((c) => c.id)).toEqual(['notes']);
    expect(second.result.nextCursor).toBeNull();
  });

  it('collections_list: a page that holds the rest has no cursor', async () => {
    const all = await f.core.execute('collections_list', { limit: 3 }, f.owner);
    expect(all.result.collections.map((c) => c.id)).toEqual(['drive', 'inbox', 'notes']);
    expect(all.result.nextCursor).toBeNull();
  });

  it('collections_list pages an exact grant through its own collections only', async () => {
    const caller = callerFor(f.accountId, { kind: 'exact', collections: { notes: ['items_list'] } });
    const { result } = await f.core.execute('collections_list', { limit: 1 }, caller);
    expect(result.collections.map((c) => c.id)).toEqual(['notes']);
    expect(result.nextCursor).toBeNull();
  });

  it('collections_list refuses a caller granted nothing', async () => {
    const caller = callerFor(f.accountId, { kind: 'exact', collections: { notes: [] } });
    await refusedWithoutChange(f, () => f.core.execute('collections_list', {}, caller), 'not_granted');
  });

  it('items_list returns a bounded page, newest change first, with summaries', async () => {
    const { result } = await f.core.execute('items_list', { collection: 'inbox', limit: 4 }, f.owner);
    expect(isValidOutput('items_list', result)).toBe(true);
    expect(result.items.map((i) => i.id)).toEqual(['welcome', 'invoice-1042', 'standup', 'travel']);
    expect(result.items[0]).toMatchObject({
      title: 'Welcome to Diosc',
      version: '1',
      metadata: { from: 'team@diosc.example', read: false },
    });
    expect(result.items[0]).not.toHaveProperty('content');
    expect(result.nextCursor).toEqual(expect.any(String));
  });

  it('item_read returns content and metadata, untruncated under the bound', async () => {
    const { result } = await f.core.execute('item_read', { collection: 'notes', item: 'config' }, f.owner);
    expect(isValidOutput('item_read', result)).toBe(true);
    expect(result.item).toMatchObject({
      id: 'config',
      contentType: 'application/json',
      content: '{"theme":"light","fontSize":14}',
      truncated: false,
      version: '1',
    });
  });

  it('item_read cuts content to readContentMaxChars and says so, never splitting a character', async () => {
    const small = await openCore(dialect, { readContentMaxChars: 5 });
    try {
      await small.core.execute(
        'item_write',
        {
          collection: 'notes',
          item: 'emoji',
          requestId: 'req-emoji-1',
          ifNoneMatch: '*',
          content: { body: 'abcd😀xyz' },
        },
        small.owner,
      );
      const { result } = await small.core.execute(
        'item_read',
        { collection: 'notes', item: 'emoji' },
        small.owner,
      );
      expect(result.item.truncated).toBe(true);
      expect(result.item.content).toBe('abcd');
      const short = await small.core.execute(
        'item_read',
        { collection: 'notes', item: 'groceries' },
        small.owner,
      );
      expect(short.result.item.content.length).toBe(5);
      expect(short.result.item.truncated).toBe(true);
    } finally {
      await small.close();
    }
  });

  it('refuses reads of a missing collection or item with not_found', async () => {
    await refusedWithoutChange(
      f,
      () => f.core.execute('items_list', { collection: 'nope' }, f.owner),
      'not_found',
    );
    await refusedWithoutChange(
      f,
      () => f.core.execute('item_read', { collection: 'notes', item: 'nope' }, f.owner),
      'not_found',
    );
  });

  it('refuses ungranted collections and functions with not_granted, before revealing existence', async () => {
    const caller = callerFor(f.accountId, { kind: 'exact', collections: { notes: ['items_list'] } });
    await refusedWithoutChange(
      f,
      () => f.core.execute('item_read', { collection: 'notes', item: 'groceries' }, caller),
      'not_granted',
    );
    await refusedWithoutChange(
      f,
      () => f.core.execute('items_list', { collection: 'inbox' }, caller),
      'not_granted',
    );
    await refusedWithoutChange(
      f,
      () => f.core.execute('items_list', { collection: 'nope' }, caller),
      'not_granted',
    );
  });

  it("never reaches another account's collections (ownership)", async () => {
    const otherId = await createAccounts(f.store.db).create(
      {
        email: 'other@example.org',
        displayName: 'Other',
        passwordHash: await hashPassword('another long password'),
      },
      f.clock.now(),
    );
    await createCollection(
      f.store.db,
      otherId,
      { id: 'secret', kind: 'storage', title: 'Secret' },
      f.clock.now(),
    );
    await insertItems(f.store, otherId, 'secret', 1, f.clock.now());
    // A grant that names the other account's collection still cannot reach it.
    const caller = callerFor(f.accountId, {
      kind: 'exact',
      collections: { secret: ['items_list', 'item_read'] },
    });
    await refusedWithoutChange(
      f,
      () => f.core.execute('items_list', { collection: 'secret' }, caller),
      'not_found',
    );
    await refusedWithoutChange(
      f,
      () => f.core.execute('item_read', { collection: 'secret', item: 'item-00000' }, caller),
      'not_found',
    );
    const { result } = await f.core.execute('collections_list', {}, f.owner);
    expect(result.collections.map((c) => c.id)).not.toContain('secret');
  });

  it('refuses a cursor it did not issue with invalid_input', async () => {
    for (const cursor of ['garbage', encodeCursor(['x']), encodeCursor([1, 2])]) {
      await refusedWithoutChange(
        f,
        () => f.core.execute('items_list', { collection: 'notes', cursor }, f.owner),
        'invalid_input',
      );
    }
    await refusedWithoutChange(
      f,
      () => f.core.execute('collections_list', { cursor: encodeCursor([3]) }, f.owner),
      'invalid_input',
    );
  });

  it('lists a 10,000-item collection in capped pages with no duplicates and no gaps', async () => {
    await createCollection(
      f.store.db,
      f.accountId,
      { id: 'big', kind: 'storage', title: 'Big' },
      f.clock.now(),
    );
    await insertItems(f.store, f.accountId, 'big', 10_000, f.clock.now());
    const seen = new Set<string>();
    const order: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const input: { collection: string; limit: number; cursor?: string } = {
        collection: 'big',
        limit: PAGE_LIMIT_MAX,
      };
      if (cursor) input.cursor = cursor;
      const { result } = await f.core.execute('items_list', input, f.owner);
      expect(result.items.length).toBeLessThanOrEqual(PAGE_LIMIT_MAX);
      for (const item of result.items) {
        expect(seen.has(item.id), `duplicate ${item.id}`).toBe(false);
        seen.add(item.id);
        order.push(item.id);
      }
      cursor = result.nextCursor;
      pages += 1;
    } while (cursor);
    expect(seen.size).toBe(10_000);
    expect(pages).toBe(100);
    // Newest change first; ties broken by id: exactly the order the fixture implies.
    const expected = Array.from({ length: 10_000 }, (_, i) => `item-${String(i).padStart(5, '0')}`);
    expect(order).toEqual(expected);
    // Without a limit the default page size applies; a list never returns everything at once.
    const { result } = await f.core.execute('items_list', { collection: 'big' }, f.owner);
    expect(result.items).toHaveLength(f.core.limits.defaultPageSize);
    expect(result.nextCursor).not.toBeNull();
  });
});
