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

  /** A second connection to the same store: what another process or instance is to SQLite. */
  async function anotherConnection() {
    const other = await openConfiguredStore(test!.config);
    others.push(other);
    return other.db;
  }

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
    await (await anotherConnection())
      .updateTable('collections')
      .set({ title: 'From elsewhere' })
      .where('id', '=', 'versioned')
      .execute();
    expect(await titleOf(accountId, 'versioned')).toEqual([{ id: 'versioned', title: 'From elsewhere' }]);
  });

  it('given the counter read at the start of a call, reuses it instead of reading it again', async () => {
    const { store, accountId } = await setUp();
    let counted = 0;
    const dataVersion =
      store.dataVersion &&
      (() => {
        counted++;
        return store.dataVersion!();
      });
    const titleOf = prepareVersionedRead(
      { db: store.db, read: store.read, ...(dataVersion && { dataVersion }) },
      (db, account: string, id: string) =>
        db.selectFrom('collections').select(['title']).where('account_id', '=', account).where('id', '=', id),
    );
    const atStart = dataVersion?.();
    counted = 0;
    const first = await titleOf.given(atStart, accountId, 'versioned');
    const second = await titleOf.given(atStart, accountId, 'versioned');
    expect(second).toEqual([{ title: 'Versioned' }]);
    expect(counted).toBe(0);
    if (dialect.name === 'sqlite') expect(second).toBe(first);
    // Without a counter from the call, it reads the counter itself.
    await titleOf.given(undefined, accountId, 'versioned');
    expect(counted).toBe(dialect.name === 'sqlite' ? 1 : 0);
  });

  it("a call that began after another connection's commit sees it, whatever an earlier call kept", async () => {
    const { accountId, titleOf, store } = await setUp();
    const earlier = store.dataVersion?.();
    expect(await titleOf.given(earlier, accountId, 'versioned')).toEqual([
      { title: 'Versioned', id: 'versioned' },
    ]);
    await (await anotherConnection()).deleteFrom('collections').where('id', '=', 'versioned').execute();
    // The next call reads the counter at its start (as /mcp's guard does) and hands it over.
    const atStart = store.dataVersion?.();
    if (dialect.name === 'sqlite') expect(atStart).not.toBe(earlier);
    expect(await titleOf.given(atStart, accountId, 'versioned')).toEqual([]);
  });

  it('answers at once, without a promise, only with rows read under that very counter', async () => {
    const { accountId, titleOf, store } = await setUp();
    const atStart = store.dataVersion?.();
    // Nothing kept yet: a promise, on every dialect.
    const first = titleOf.given(atStart, accountId, 'versioned');
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual([{ id: 'versioned', title: 'Versioned' }]);
    const again = titleOf.given(atStart, accountId, 'versioned');
    // SQLite keeps the rows under its counter and hands them over at once; PostgreSQL reads.
    if (dialect.name === 'sqlite') expect(again).toEqual([{ id: 'versioned', title: 'Versioned' }]);
    else expect(again).toBeInstanceOf(Promise);
    // Another connection commits; a call that began after it reads again and sees the change.
    await (await anotherConnection())
      .updateTable('collections')
      .set({ title: 'Moved on' })
      .where('id', '=', 'versioned')
      .execute();
    const later = titleOf.given(store.dataVersion?.(), accountId, 'versioned');
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toEqual([{ id: 'versioned', title: 'Moved on' }]);
    // A counter from before the commit gets no rows kept from before it either: those were dropped.
    expect(titleOf.given(atStart, accountId, 'versioned')).toBeInstanceOf(Promise);
  });
});
