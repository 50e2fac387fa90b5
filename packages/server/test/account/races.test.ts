import { DioscError } from '@diosc/protocol';
import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallerContext } from '../../src/account/caller-context.js';
import { type CoreFixture, itemRow, openCore, receiptRow } from './helpers.js';

const ROUNDS = 8;

/** Settles two racing calls and returns [winner index, loser's error]; fails unless exactly one won. */
function oneWinner(settled: PromiseSettledResult<unknown>[]): { winner: number; loser: DioscError } {
  const wins = settled.flatMap((s, i) => (s.status === 'fulfilled' ? [i] : []));
  expect(wins, JSON.stringify(settled.map((s) => s.status))).toHaveLength(1);
  const lost = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult;
  expect(DioscError.isInstance(lost.reason), String(lost.reason)).toBe(true);
  return { winner: wins[0]!, loser: lost.reason as DioscError };
}

describe.each(DIALECTS)('conditional write races ($name)', (dialect) => {
  let f: CoreFixture;
  let a: CallerContext;
  let b: CallerContext;
  beforeEach(async () => {
    f = await openCore(dialect);
    a = { ...f.owner, actor: 'writer:a' };
    b = { ...f.owner, actor: 'writer:b' };
  });
  afterEach(() => f.close());

  it('two creates of one item: exactly one creates, the other gets precondition_failed', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const item = `race-create-${round}`;
      const write = (caller: CallerContext, body: string) =>
        f.core.execute(
          'item_write',
          {
            collection: 'notes',
            item,
            requestId: `req-${item}-${body}`,
            ifNoneMatch: '*',
            content: { body },
          },
          caller,
        );
      const settled = await Promise.allSettled([write(a, 'aaaa'), write(b, 'bbbb')]);
      const { winner, loser } = oneWinner(settled);
      expect(loser.code).toBe('precondition_failed');
      const body = winner === 0 ? 'aaaa' : 'bbbb';
      expect(await itemRow(f.store, f.accountId, 'notes', item)).toMatchObject({ content: body, version: 1 });
      expect(await receiptRow(f.store, 'writer:a', `req-${item}-aaaa`)).toEqual(
        winner === 0 ? expect.objectContaining({ status: 'committed' }) : undefined,
      );
      expect(await receiptRow(f.store, 'writer:b', `req-${item}-bbbb`)).toEqual(
        winner === 1 ? expect.objectContaining({ status: 'committed' }) : undefined,
      );
    }
  });

  it('two replaces at one version: exactly one applies, the other gets precondition_failed', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const version = String(round + 1);
      const write = (caller: CallerContext, body: string) =>
        f.core.execute(
          'item_write',
          {
            collection: 'notes',
            item: 'groceries',
            requestId: `req-replace-${round}-${body}`,
            ifMatch: version,
            content: { body },
          },
          caller,
        );
      const settled = await Promise.allSettled([write(a, 'aaaa'), write(b, 'bbbb')]);
      const { winner, loser } = oneWinner(settled);
      expect(loser.code).toBe('precondition_failed');
      expect(await itemRow(f.store, f.accountId, 'notes', 'groceries')).toMatchObject({
        content: winner === 0 ? 'aaaa' : 'bbbb',
        version: round + 2,
      });
    }
    const receipts = await f.store.db.selectFrom('receipts').select(['status']).execute();
    expect(receipts).toHaveLength(ROUNDS);
    expect(receipts.every((r) => r.status === 'committed')).toBe(true);
  });

  it('two deletes, and a delete against a replace: exactly one wins, the other gets precondition_failed', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const item = `race-delete-${round}`;
      await f.core.execute(
        'item_write',
        {
          collection: 'notes',
          item,
          requestId: `req-seed-${item}`,
          ifNoneMatch: '*',
          content: { body: 'x' },
        },
        f.owner,
      );
      const del = (caller: CallerContext, tag: string) =>
        f.core.execute(
          'item_delete',
          { collection: 'notes', item, requestId: `req-${item}-${tag}`, ifMatch: '1' },
          caller,
        );
      const replace = (caller: CallerContext) =>
        f.core.execute(
          'item_write',
          {
            collection: 'notes',
            item,
            requestId: `req-${item}-replace`,
            ifMatch: '1',
            content: { body: 'y' },
          },
          caller,
        );
      const racers = round % 2 === 0 ? [del(a, 'a'), del(b, 'b')] : [del(a, 'a'), replace(b)];
      const { winner, loser } = oneWinner(await Promise.allSettled(racers));
      expect(loser.code).toBe('precondition_failed');
      const row = await itemRow(f.store, f.accountId, 'notes', item);
      if (round % 2 === 1 && winner === 1) expect(row).toMatchObject({ content: 'y', version: 2 });
      else expect(row).toBeUndefined();
    }
  });

  it('the same request sent twice at once executes once: the twin replays or answers in_flight', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const input = {
        collection: 'notes',
        item: `twin-${round}`,
        requestId: `req-twin-${round}`,
        ifNoneMatch: '*',
        content: { body: 'once' },
      };
      const settled = await Promise.allSettled([
        f.core.execute('item_write', input, a),
        f.core.execute('item_write', input, a),
      ]);
      const executed = settled.filter((s) => s.status === 'fulfilled' && !s.value.replayed);
      expect(executed).toHaveLength(1);
      const first = (executed[0] as PromiseFulfilledResult<{ result: unknown }>).value.result;
      for (const s of settled) {
        if (s.status === 'rejected') expect((s.reason as DioscError).code).toBe('in_flight');
        else expect(s.value.result).toEqual(first);
      }
      expect(await itemRow(f.store, f.accountId, 'notes', input.item)).toMatchObject({
        version: 1,
        content: 'once',
      });
      expect(await receiptRow(f.store, 'writer:a', input.requestId)).toMatchObject({ status: 'committed' });
    }
  });
});
