import type { MutatingFunction, ReviewEffects, ValidCall } from '@diosc/protocol';
import type { CallerContext } from './caller-context.js';
import { authorizeCollection } from './collections.js';
import type { OperationContext } from './context.js';
import { findItemRow, toFull } from './item-view.js';
import { planWrite } from './write-plan.js';

/**
 * What a validated write or delete would do to the current item, without doing it: the same
 * authority checks as execution (grant, then ownership, then kind) and the same kind rules
 * (`planWrite`), so the owner is never shown a change the core would refuse. Nothing is claimed or
 * written; execution checks everything again.
 */
export async function previewChange(
  ctx: OperationContext,
  call: ValidCall<MutatingFunction>,
  caller: CallerContext,
): Promise<ReviewEffects> {
  const { input } = call;
  const collection = await authorizeCollection(ctx.reads, caller, input.collection, call.name);
  const row = await findItemRow(ctx.db, {
    accountId: caller.accountId,
    collection: input.collection,
    item: input.item,
  });
  const before = row ? toFull(row, ctx.limits.readContentMaxChars) : null;
  const base = { collection, item: input.item, before };
  if (call.name === 'item_delete') return { ...base, action: 'delete', after: null };
  const write = call.input;
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
