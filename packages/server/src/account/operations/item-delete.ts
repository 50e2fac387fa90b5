import { DioscError, type OperationInputs, type OperationOutputs } from '@diosc/protocol';
import type { CallerContext } from '../caller-context.js';
import type { OperationContext } from '../context.js';
import { type MutationOutcome, runMutation } from '../mutation.js';

/** Deletes a storage item only if it still exists at the caller's version. */
export async function itemDelete(
  ctx: OperationContext,
  input: OperationInputs['item_delete'],
  caller: CallerContext,
): Promise<MutationOutcome<OperationOutputs['item_delete']>> {
  return runMutation(ctx, caller, 'item_delete', input, async (trx) => {
    const row = await trx
      .selectFrom('items')
      .select(['version'])
      .where('account_id', '=', caller.accountId)
      .where('collection_id', '=', input.collection)
      .where('id', '=', input.item)
      .executeTakeFirst();
    // A conditional delete of an item that is gone fails its condition (as HTTP If-Match does), so
    // the loser of two racing deletes hears the same thing as the loser of a delete/replace race.
    if (!row) {
      throw new DioscError(
        'precondition_failed',
        `Item "${input.item}" does not exist in "${input.collection}" (already deleted?).`,
      );
    }
    if (String(row.version) !== input.ifMatch) {
      throw new DioscError(
        'precondition_failed',
        `Item "${input.item}" is at version ${row.version}, not ${input.ifMatch}.`,
        {
          details: { currentVersion: String(row.version) },
        },
      );
    }
    const deleted = await trx
      .deleteFrom('items')
      .where('account_id', '=', caller.accountId)
      .where('collection_id', '=', input.collection)
      .where('id', '=', input.item)
      .where('version', '=', row.version)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) {
      throw new DioscError(
        'precondition_failed',
        `Item "${input.item}" changed while this delete was applied.`,
      );
    }
    return { collection: input.collection, item: input.item, deleted: true };
  });
}
