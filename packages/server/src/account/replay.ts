import { DioscError, type MutatingFunction, type ValidCall } from '@diosc/protocol';
import type { CallerContext } from './caller-context.js';
import { authorizeCollection } from './collections.js';
import type { OperationContext } from './context.js';
import { inputDigest } from './digest.js';

/**
 * The stored result of a write this caller already committed under this request ID with this
 * exact input, or null when there is none (never run, refused, still in flight, or pruned). The
 * same authority checks as execution come first, so a replay reveals nothing the caller could not
 * ask for; another input under the same ID is `request_id_collision`, as execution says. Nothing
 * runs and nothing is written: this is how a review learns that there is nothing to decide.
 */
export async function storedReplay(
  ctx: OperationContext,
  call: ValidCall<MutatingFunction>,
  caller: CallerContext,
): Promise<{ result: unknown } | null> {
  await authorizeCollection(ctx.reads, caller, call.input.collection, call.name);
  const receipt = await ctx.receipts.find({ actor: caller.actor, requestId: call.input.requestId });
  if (receipt?.status !== 'committed') return null;
  if (receipt.function_name !== call.name || receipt.input_digest !== inputDigest(call.name, call.input)) {
    throw new DioscError(
      'request_id_collision',
      `Request ID "${call.input.requestId}" was already used with different input; choose a new ID for a new change.`,
    );
  }
  return { result: JSON.parse(receipt.result ?? 'null') as unknown };
}
