import { DioscError, type OperationInputs, type OperationOutputs } from '@diosc/protocol';
import type { CallerContext } from '../caller-context.js';
import type { OperationContext } from '../context.js';
import { findItemRow, toFull } from '../item-view.js';

export async function itemRead(
  ctx: OperationContext,
  input: OperationInputs['item_read'],
  caller: CallerContext,
): Promise<OperationOutputs['item_read']> {
  const row = await findItemRow(ctx.db, { accountId: caller.accountId, ...input });
  if (!row) throw new DioscError('not_found', `There is no item "${input.item}" in "${input.collection}".`);
  return { collection: input.collection, item: toFull(row, ctx.limits.readContentMaxChars) };
}
