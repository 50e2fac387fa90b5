import { DIALECTS } from '@diosc/server/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inputDigest } from '../../src/account/digest.js';
import { type CoreFixture, openCore, refusal } from './helpers.js';

/** Claims on a request ID, as `receipts.claim` answers them: fresh, held, taken over, raced. */
describe.each(DIALECTS)('receipt claims ($name)', (dialect) => {
  let f: CoreFixture;
  beforeEach(async () => {
    f = await openCore(dialect);
  });
  afterEach(() => f.close());

  const key = (requestId: string) => ({ actor: 'owner:test', requestId });
  const claim = (requestId: string) =>
    f.core.receipts.claim(
      key(requestId),
      f.accountId,
      'item_write',
      inputDigest('item_write', { requestId }),
    );

  it('a held claim is in_flight, named, with the time left; an expired one is taken over with a fresh lease', async () => {
    const lease = f.core.limits.inFlightLeaseMs;
    expect(await claim('req-claim-1')).toEqual({ kind: 'fresh', lease: f.clock.now() + lease });
    f.clock.advance(1_000);
    const held = await refusal(claim('req-claim-1'), 'in_flight');
    expect(held.message).toBe('Request "req-claim-1" is still being processed.');
    expect(held.retryAfterMs).toBe(lease - 1_000);
    f.clock.advance(lease);
    expect(await claim('req-claim-1')).toEqual({ kind: 'fresh', lease: f.clock.now() + lease });
  });

  it('two retries racing for an expired claim: one takes it over, the other hears in_flight', async () => {
    await claim('req-claim-2');
    f.clock.advance(f.core.limits.inFlightLeaseMs);
    const answers = await Promise.allSettled([claim('req-claim-2'), claim('req-claim-2')]);
    const taken = answers.filter((answer) => answer.status === 'fulfilled');
    const refused = answers.filter((answer) => answer.status === 'rejected');
    expect(taken).toHaveLength(1);
    expect(taken[0]!.value).toEqual({ kind: 'fresh', lease: f.clock.now() + f.core.limits.inFlightLeaseMs });
    expect(refused).toHaveLength(1);
    const loser = refused[0]!.reason as { code: string; message: string; retryAfterMs: number };
    expect(loser).toMatchObject({
      code: 'in_flight',
      message: 'Request "req-claim-2" is still being processed.',
    });
    // Lost the take-over itself (both saw the expired lease: SQLite's one connection always
    // interleaves so), or — on a pool — saw the winner's fresh lease already.
    expect([100, f.core.limits.inFlightLeaseMs]).toContain(loser.retryAfterMs);
  });
});
