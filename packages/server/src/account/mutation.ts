import { DioscError, type MutatingFunction } from '@diosc/protocol';
import type { Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import type { CallerContext } from './caller-context.js';
import type { OperationContext } from './context.js';
import { inputDigest } from './digest.js';

export interface MutationOutcome<R> {
  result: R;
  replayed: boolean;
}

/**
 * The one path every write and delete takes: claim the request ID, stop if the caller already gave
 * up, then run the change and complete its receipt in a single transaction. A refusal inside the
 * transaction rolls back and releases the claim, so nothing — not even a receipt — is left behind.
 */
export async function runMutation<R>(
  ctx: OperationContext,
  caller: CallerContext,
  fn: MutatingFunction,
  input: { requestId: string },
  change: (trx: Transaction<Database>) => Promise<R>,
): Promise<MutationOutcome<R>> {
  const key = { actor: caller.actor, requestId: input.requestId };
  const claim = await ctx.receipts.claim(key, caller.accountId, fn, inputDigest(fn, input));
  if (claim.kind === 'replay') return { result: claim.result as R, replayed: true };
  try {
    if (caller.signal?.aborted) {
      throw new DioscError(
        'cancelled',
        `Request "${input.requestId}" was cancelled before it was dispatched.`,
      );
    }
    const result = await ctx.db.transaction().execute(async (trx) => {
      const value = await change(trx);
      if (!(await ctx.receipts.complete(trx, key, claim.lease, value))) throw new LostClaim();
      await ctx.insideWrite?.({ name: fn, requestId: input.requestId });
      return value;
    });
    return { result, replayed: false };
  } catch (error) {
    if (error instanceof LostClaim) return replayCommitted(ctx, key);
    await ctx.receipts.release(key, claim.lease);
    throw error;
  }
}

/** Thrown inside the transaction to roll it back when another holder committed this request first. */
class LostClaim extends Error {}

async function replayCommitted<R>(
  ctx: OperationContext,
  key: { actor: string; requestId: string },
): Promise<MutationOutcome<R>> {
  const receipt = await ctx.receipts.find(key);
  if (receipt?.status === 'committed') {
    return { result: JSON.parse(receipt.result ?? 'null') as R, replayed: true };
  }
  throw new DioscError('in_flight', `Request "${key.requestId}" is still being processed.`, {
    retryAfterMs: 100,
  });
}
