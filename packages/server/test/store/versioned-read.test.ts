import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { openConfiguredStore } from '../../src/store/configured-store.js';
import type { Store } from '../../src/store/dialect.js';
import { prepareVersionedRead } from '../../src/store/versioned-read.js';

/**
 * A versioned read may answer from memory only while nothing was committed: whoever commits (this
 * store's writer, or another connection — what another process or instance is to SQLite), the very
 * next read sees it.
 */
describe.each(DIALECTS)('versioned reads ($name)', (dialect) => {
  let test: TestStore | undefined;
  const others: Store[] = [];
  afterEach(async () => {
    for (const store of others.splice(0)) await store.close();
    await test?.close();
    test = undefined;
  });

  async function setUp() {
    test = await openTestStore(dialect);
    const { store, accountId } = test;
    const titleOf = prepareVersionedRead(store, (db, account: string, id: string) =>
      db
        .selectFrom('collections')
        .select(['id', 'title'])
        .where('account_id', '=', account)
        .where('id', '=', id),
    );
    await store.db
      .insertInto('collections')
      .values({ account_id: accountId, id: 'versioned', kind: 'storage', title: 'Versioned', created_at: 1 })
      .execute();
    return { store, accountId, titleOf };
  }

  it('reuses an answer until the next commit, and only where the store has a change counter', async () => {
    const { store, accountId, titleOf } = await setUp();
    const first = await titleOf(accountId, 'versioned');
    const again = await titleOf(accountId, 'versioned');
    expect(again).toEqual([{ id: 'versioned', title: 'Versioned' }]);
    // SQLite has its change counter: the same answer, not a second read. PostgreSQL has none here:
    // every call reads.
    if (dialect.name === 'sqlite') expect(again).toBe(first);
    else expect(again).not.toBe(first);
    expect(typeof store.dataVersion).toBe(dialect.name === 'sqlite' ? 'function' : 'undefined');
    // Other arguments are their own answer.
    expect(await titleOf(accountId, 'elsewhere')).toEqual([]);
  });

  it("sees the store's own commit on the very next read", async () => {
    const { store, accountId, titleOf } = await setUp();
    expect(await titleOf(accountId, 'versioned')).toEqual([{ id: 'versioned', title: 'Versioned' }]);
    await store.db
      .updateTable('collections')
      .set({ title: 'Renamed' })
      .where('id', '=', 'versioned')
      .execute();
    expect(await titleOf(accountId, 'versioned')).toEqual([{ id: 'versioned', title: 'Renamed' }]);
    await store.db.deleteFrom('collections').where('id', '=', 'versioned').execute();
    expect(await titleOf(accountId, 'versioned')).toEqual([]);
  });

  it("sees another connection's commit on the very next read (another process or instance)", async () => {
    const { accountId, titleOf } = await setUp();
    expect(await titleOf(accountId, 'versioned')).toEqual([{ id: 'versioned', title: 'Versioned' }]);
    const other = await openConfiguredStore(test!.config);
    others.push(other);
    await other.db
      .updateTable('collections')
      .set({ title: 'From elsewhere' })
      .where('id', '=', 'versioned')
      .execute();
    expect(await titleOf(accountId, 'versioned')).toEqual([{ id: 'versioned', title: 'From elsewhere' }]);
  });
});
