import { DIALECTS } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/account/limits.js';
import { type CoreFixture, itemRow, openCore, refusedWithoutChange } from './helpers.js';

/** The seeded demo account holds 12 items (6 messages, 3 notes, 3 mirrored files). */
const SEEDED_ITEMS = 12;

describe.each(DIALECTS)('quotas and admission ($name)', (dialect) => {
  let f: CoreFixture | undefined;
  afterEach(async () => {
    await f?.close();
    f = undefined;
  });

  const create = (item: string, body: string, requestId = `request-${item}`) => ({
    collection: 'notes',
    item,
    requestId,
    ifNoneMatch: '*' as const,
    content: { body },
  });

  it('refuses a create past the item quota with quota_exceeded, and allows one within it', async () => {
    f = await openCore(dialect, { maxItemsPerAccount: SEEDED_ITEMS + 1 });
    await f.core.execute('item_write', create('fits', 'x'), f.owner);
    const fx = f;
    const error = await refusedWithoutChange(
      fx,
      () => fx.core.execute('item_write', create('over', 'x'), fx.owner),
      'quota_exceeded',
    );
    expect(error.retryable).toBe(false);
    // Replacing an existing item does not add one, so it still works at the quota.
    await f.core.execute(
      'item_write',
      { collection: 'notes', item: 'fits', requestId: 'req-fits-2', ifMatch: '1', content: { body: 'y' } },
      f.owner,
    );
    // Deleting frees room.
    await f.core.execute(
      'item_delete',
      { collection: 'notes', item: 'fits', requestId: 'req-fits-3', ifMatch: '2' },
      f.owner,
    );
    await f.core.execute('item_write', create('over', 'x', 'req-over-2'), f.owner);
  });

  it('holds the item quota under concurrent creates: exactly as many succeed as fit', async () => {
    f = await openCore(dialect, { maxItemsPerAccount: SEEDED_ITEMS + 2 });
    const fx = f;
    const settled = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        fx.core.execute('item_write', create(`concurrent-${i}`, 'x'), fx.owner),
      ),
    );
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(2);
    for (const s of settled) {
      if (s.status === 'rejected') expect((s.reason as { code: string }).code).toBe('quota_exceeded');
    }
    const count = await fx.store.db
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('account_id', '=', fx.accountId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(SEEDED_ITEMS + 2);
  });

  it('refuses creates and replaces past the byte quota', async () => {
    const probe = await openCore(dialect);
    const used = await probe.store.db
      .selectFrom('items')
      .select((eb) => eb.fn.sum<number | string>('size_bytes').as('bytes'))
      .where('account_id', '=', probe.accountId)
      .executeTakeFirstOrThrow();
    await probe.close();
    const usedBytes = Number(used.bytes);
    expect(usedBytes).toBeGreaterThan(0);
    f = await openCore(dialect, { maxBytesPerAccount: usedBytes + 10 });
    const fx = f;
    await refusedWithoutChange(
      fx,
      () => fx.core.execute('item_write', create('big', '12345678901'), fx.owner),
      'quota_exceeded',
    );
    await fx.core.execute('item_write', create('ten', '1234567890'), fx.owner);
    await refusedWithoutChange(
      fx,
      () =>
        fx.core.execute(
          'item_write',
          {
            collection: 'notes',
            item: 'ten',
            requestId: 'req-ten-2',
            ifMatch: '1',
            content: { body: '12345678901' },
          },
          fx.owner,
        ),
      'quota_exceeded',
    );
    // Shrinking is always allowed, even at the quota.
    await fx.core.execute(
      'item_write',
      { collection: 'notes', item: 'ten', requestId: 'req-ten-3', ifMatch: '1', content: { body: '1' } },
      fx.owner,
    );
    expect(await itemRow(fx.store, fx.accountId, 'notes', 'ten')).toMatchObject({
      size_bytes: 1,
      version: 2,
    });
  });

  it('limits calls per minute per caller with rate_limited and a retry hint', async () => {
    f = await openCore(dialect, { callsPerMinutePerCaller: 3 });
    const fx = f;
    for (let i = 0; i < 3; i += 1) await fx.core.execute('collections_list', {}, fx.owner);
    fx.clock.advance(20_000);
    const error = await refusedWithoutChange(
      fx,
      () => fx.core.execute('item_write', create('rate', 'x'), fx.owner),
      'rate_limited',
    );
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(40_000);
    // Another caller has its own budget.
    await fx.core.execute('collections_list', {}, { ...fx.owner, actor: 'conn:other' });
    fx.clock.advance(40_000);
    await fx.core.execute('item_write', create('rate', 'x'), fx.owner);
    expect(await itemRow(fx.store, fx.accountId, 'notes', 'rate')).toMatchObject({
      content: 'x',
      version: 1,
    });
  });

  it('admits a bounded number of concurrent operations per account; over it answers busy', async () => {
    f = await openCore(dialect, { maxConcurrentPerAccount: 2 });
    const fx = f;
    // Two operations of this account are running (held open as a long call would hold them).
    const first = fx.core.admission.enter(fx.accountId);
    const second = fx.core.admission.enter(fx.accountId);
    const error = await refusedWithoutChange(
      fx,
      () => fx.core.execute('item_write', create('busy', 'x'), fx.owner),
      'busy',
    );
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(250);
    await refusedWithoutChange(
      fx,
      () => fx.core.execute('items_list', { collection: 'notes' }, fx.owner),
      'busy',
    );
    // Another account is not affected.
    expect(fx.core.admission.running('another-account')).toBe(0);
    first();
    first(); // releasing twice frees one slot only
    expect(fx.core.admission.running(fx.accountId)).toBe(1);
    await fx.core.execute('item_write', create('busy', 'x'), fx.owner);
    expect(fx.core.admission.running(fx.accountId)).toBe(1);
    second();
    expect(fx.core.admission.running(fx.accountId)).toBe(0);
  });

  it('releases its admission slot whatever the outcome', async () => {
    f = await openCore(dialect, { maxConcurrentPerAccount: 1 });
    const fx = f;
    await refusedWithoutChange(
      fx,
      () => fx.core.execute('item_read', { collection: 'notes', item: 'missing' }, fx.owner),
      'not_found',
    );
    await refusedWithoutChange(
      fx,
      () => fx.core.execute('item_write', create('groceries', 'x'), fx.owner),
      'precondition_failed',
    );
    expect(fx.core.admission.running(fx.accountId)).toBe(0);
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) => fx.core.execute('item_write', create(`burst-${i}`, 'x'), fx.owner)),
    );
    // However the burst interleaved, every call either ran or was refused as busy, and nothing leaked.
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as { code: string }).code).toBe('busy');
    }
    expect(results.some((r) => r.status === 'fulfilled')).toBe(true);
    expect(fx.core.admission.running(fx.accountId)).toBe(0);
  });

  it('documents its defaults', () => {
    expect(DEFAULT_LIMITS).toEqual({
      defaultPageSize: 50,
      readContentMaxChars: 65_536,
      maxItemsPerAccount: 50_000,
      maxBytesPerAccount: 256 * 1024 * 1024,
      callsPerMinutePerCaller: 1_200,
      maxConcurrentPerAccount: 16,
      receiptRetentionMs: 7 * 24 * 60 * 60 * 1000,
      inFlightLeaseMs: 30_000,
    });
  });
});
