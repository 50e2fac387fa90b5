import type { OperationInputs, ReviewEffects } from '@diosc/protocol';
import type { CallerContext } from '../account/caller.js';
import { authorizeCollection } from '../account/collections.js';
import { findItemRow, toFull } from '../account/item-view.js';
import { planWrite } from '../account/write-plan.js';
import type { DioscContext } from '../context.js';

export type { ReviewEffects };

type WriteInput = OperationInputs['item_write'];
type DeleteInput = OperationInputs['item_delete'];

/**
 * Describes a validated item_write/item_delete input against the current item. Authority, existence
 * and kind are checked the way the core checks them; the core re-checks everything at execution.
 */
export async function describeEffects(
  ctx: DioscContext,
  caller: CallerContext,
  tool: 'item_write' | 'item_delete',
  input: WriteInput | DeleteInput,
): Promise<ReviewEffects> {
  const collection = await authorizeCollection(ctx.store.db, caller, input.collection, tool);
  const row = await findItemRow(ctx.store.db, {
    accountId: caller.accountId,
    collection: input.collection,
    item: input.item,
  });
  const before = row ? toFull(row, ctx.core.limits.readContentMaxChars) : null;
  const base = { collection, item: input.item, before };
  if (tool === 'item_delete') return { ...base, action: 'delete', after: null };
  const write = input as WriteInput;
  const action = planWrite(collection.kind, write);
  if (action === 'metadata') {
    return { ...base, action, after: { metadata: { ...before?.metadata, ...write.metadata } } };
  }
  const creating = action === 'create';
  const content = write.content!;
  return {
    ...base,
    action,
    after: {
      title: content.title ?? (creating ? write.item : (before?.title ?? write.item)),
      content: content.body,
      contentType: content.contentType ?? (creating ? 'text/plain' : (before?.contentType ?? 'text/plain')),
    },
  };
}
