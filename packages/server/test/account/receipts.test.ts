import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inputDigest } from '../../src/account/digest.js';
import { startReceiptPruner } from '../../src/account/receipt-pruner.js';
import { startPeriodic } from '../../src/periodic.js';
import {
  type CoreFixture,
  itemRow,
  openCore,
  receiptRow,
  refusedWithoutChange,
  snapshot,
} from './helpers.js';

const create = (requestId: string, body = 'first') => ({
  collection: 'notes',
  item: 'replayed',
  requestId,
  ifNoneMatch: '*' as const,
  content: { body },
});

describe.each(DIALECTS)('mutation receipts ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
  });
  afterEach(() => f.close());

  it('replays the identical stored result for the same ID and input, without a second mutation', async () => {
    const first = await f.core.execute('item_write', create('req-replay-1'), f.owner);
    const rowAfterFirst = await itemRow(f.store, f.accountId, 'notes', 'replayed');
    f.clock.advance(5_000);
    const before = await snapshot(f.store);
    // Same input with keys in another order: the digest is canonical.
    const again = await f.core.execute(
      'item_write',
      {
        content: { body: 'first' },
        ifNoneMatch: '*',
        requestId: 'req-replay-1',
        item: 'replayed',
        collection: 'notes',
      },
      f.owner,
    );
    expect(again.replayed).toBe(true);
    expect(again.result).toEqual(first.result);
    expect(await snapshot(f.store)).toEqual(before);
    expect(await itemRow(f.store, f.accountId, 'notes', 'replayed')).toEqual(rowAfterFirst);

    // A replace replayed after the item moved on still answers what it answered then.
    const replace = {
      collection: 'notes',
      item: 'replayed',
      requestId: 'req-replay-2',
      ifMatch: '1',
      content: { body: 'v2' },
    };
    const replaced = await f.core.execute('item_write', replace, f.owner);
    await f.core.execute(
      'item_write',
      { ...replace, requestId: 'req-replay-3', ifMatch: '2', content: { body: 'v3' } },
      f.owner,
    );
    const replayed = await f.core.execute('item_write', replace, f.owner);
    expect(replayed).toEqual({ name: 'item_write', result: replaced.result, replayed: true });
    expect((await itemRow(f.store, f.accountId, 'notes', 'replayed'))?.version).toBe(3);

    // Deletes replay too, even though the item is gone now.
    const del = { collection: 'notes', item: 'replayed', requestId: 'req-replay-4', ifMatch: '3' };
    const deleted = await f.core.execute('item_delete', del, f.owner);
    const deletedAgain = await f.core.execute('item_delete', del, f.owner);
    expect(deletedAgain).toEqual({ ...deleted, replayed: true });
  });

  it('refuses the same ID with different input as request_id_collision', async () => {
    await f.core.execute('item_write', create('req-collide-1'), f.owner);
    await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', create('req-collide-1', 'other'), f.owner),
      'request_id_collision',
    );
    // Same ID on the other mutating function is a collision as well.
    await refusedWithoutChange(
      f,
      () =>
        f.core.execute(
          'item_delete',
          { collection: 'notes', item: 'replayed', requestId: 'req-collide-1', ifMatch: '1' },
          f.owner,
        ),
      'request_id_collision',
    );
  });

  it('keeps request IDs per actor: another actor may reuse an ID for its own change', async () => {
    await f.core.execute('item_write', create('req-actor-1'), f.owner);
    const other = { ...f.owner, actor: 'conn:other' };
    const { result, replayed } = await f.core.execute(
      'item_write',
      { ...create('req-actor-1'), item: 'mine' },
      other,
    );
    expect(replayed).toBe(false);
    expect(result.item.id).toBe('mine');
    expect(await receiptRow(f.store, 'conn:other', 'req-actor-1')).toMatchObject({ status: 'committed' });
  });

  it('answers in_flight while a claim is held, and takes over once its lease has expired', async () => {
    const input = create('req-lease-1');
    // A holder that claimed this request and then died (a crashed process) left this row behind.
    const claim = await f.core.receipts.claim(
      { actor: f.owner.actor, requestId: 'req-lease-1' },
      f.accountId,
      'item_write',
      inputDigest('item_write', input),
    );
    expect(claim.kind).toBe('fresh');
    const error = await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', input, f.owner),
      'in_flight',
    );
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(f.core.limits.inFlightLeaseMs);
    // A different input under the held ID is still a collision, not in_flight.
    await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', create('req-lease-1', 'x'), f.owner),
      'request_id_collision',
    );

    f.clock.advance(f.core.limits.inFlightLeaseMs - 1);
    await refusedWithoutChange(f, () => f.core.execute('item_write', input, f.owner), 'in_flight');
    f.clock.advance(1);
    const taken = await f.core.execute('item_write', input, f.owner);
    expect(taken.replayed).toBe(false);
    expect(await itemRow(f.store, f.accountId, 'notes', 'replayed')).toMatchObject({
      content: 'first',
      version: 1,
    });
    expect(await receiptRow(f.store, f.owner.actor, 'req-lease-1')).toMatchObject({ status: 'committed' });

    // The dead holder cannot complete its old claim any more.
    const completed = await f.store.db
      .transaction()
      .execute((trx) =>
        f.core.receipts.complete(
          trx,
          { actor: f.owner.actor, requestId: 'req-lease-1' },
          (claim as { lease: number }).lease,
          {},
        ),
      );
    expect(completed).toBe(false);
  });

  it('prunes receipts after the retention period, and stale claims with them', async () => {
    expect(f.core.limits.receiptRetentionMs).toBe(7 * 24 * 60 * 60 * 1000);
    await f.core.execute('item_write', create('req-prune-1'), f.owner);
    await f.core.receipts.claim(
      { actor: f.owner.actor, requestId: 'req-prune-dead' },
      f.accountId,
      'item_write',
      'd',
    );
    f.clock.advance(f.core.limits.receiptRetentionMs);
    await f.core.execute('item_write', { ...create('req-prune-2'), item: 'later' }, f.owner);
    expect(await f.core.receipts.prune(f.core.limits.receiptRetentionMs)).toBe(0);
    f.clock.advance(f.core.limits.inFlightLeaseMs + 1);
    expect(await f.core.receipts.prune(f.core.limits.receiptRetentionMs)).toBe(2);
    expect(await receiptRow(f.store, f.owner.actor, 'req-prune-1')).toBeUndefined();
    expect(await receiptRow(f.store, f.owner.actor, 'req-prune-dead')).toBeUndefined();
    expect(await receiptRow(f.store, f.owner.actor, 'req-prune-2')).toMatchObject({ status: 'committed' });
    // The item itself stays; only the replay record went. The old ID now executes as new input.
    expect(await itemRow(f.store, f.accountId, 'notes', 'replayed')).toMatchObject({
      content: 'first',
      version: 1,
    });
    await refusedWithoutChange(
      f,
      () => f.core.execute('item_write', create('req-prune-1'), f.owner),
      'precondition_failed',
    );
  });
});

/** The pruner over the real receipts of a real store; only the interval timer is faked. */
describe.each(DIALECTS)('receipt pruner ($name)', (dialect) => {
  const HOUR_MS = 60 * 60 * 1000;
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(async () => {
    vi.useRealTimers();
    await f.close();
  });

  it('prunes hourly with the configured retention, and stops when told', async () => {
    const retention = f.core.limits.receiptRetentionMs;
    await f.core.execute('item_write', create('req-pruner-old'), f.owner);
    f.clock.advance(retention + 1);
    await f.core.execute('item_write', { ...create('req-pruner-young'), item: 'young' }, f.owner);
    const stop = startReceiptPruner({ receipts: f.core.receipts, limits: f.core.limits });

    // Nothing runs before the hour is up: no prune was started, so the read cannot race one.
    vi.advanceTimersByTime(HOUR_MS - 1);
    expect(await receiptRow(f.store, f.owner.actor, 'req-pruner-old')).toMatchObject({ status: 'committed' });
    vi.advanceTimersByTime(1);
    await vi.waitFor(async () => {
      expect(await receiptRow(f.store, f.owner.actor, 'req-pruner-old')).toBeUndefined();
    });
    // The retention is the configured one: the receipt younger than it stays.
    expect(await receiptRow(f.store, f.owner.actor, 'req-pruner-young')).toMatchObject({
      status: 'committed',
    });
    // Stopped, the interval is gone: no timer is left that could prune again.
    expect(vi.getTimerCount()).toBe(1);
    stop();
    expect(vi.getTimerCount()).toBe(0);
    f.clock.advance(retention);
    vi.advanceTimersByTime(3 * HOUR_MS);
    expect(await receiptRow(f.store, f.owner.actor, 'req-pruner-young')).toMatchObject({
      status: 'committed',
    });
  });
});

describe("startPeriodic (the pruners' scheduler)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports a failed run and keeps going', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let n = 0;
    const stop = startPeriodic(
      async () => {
        n += 1;
        if (n === 1) throw new Error('store down');
      },
      { intervalMs: 10, onError: (error) => errors.push(error) },
    );
    await vi.advanceTimersByTimeAsync(20);
    stop();
    expect(n).toBe(2);
    expect(errors).toEqual([new Error('store down')]);
  });
});
