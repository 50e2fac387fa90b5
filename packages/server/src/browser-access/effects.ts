import {
  type CollectionKind,
  DioscError,
  type ItemFull,
  type MessageMetadata,
  type OperationInputs,
} from '@diosc/protocol';
import type { CallerContext } from '../account/caller.js';
import { authorizeCollection } from '../account/collections.js';
import { toFull } from '../account/item-view.js';
import type { DioscContext } from '../context.js';

/** What a reviewed change would do, shown in the review dialog before the owner accepts it. */
export interface ReviewEffects {
  collection: { id: string; title: string; kind: CollectionKind };
  item: string;
  action: 'create' | 'replace' | 'metadata' | 'delete';
  before: ItemFull | null;
  after: { title?: string; content?: string; contentType?: string; metadata?: MessageMetadata } | null;
}

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
  const row = await ctx.store.db
    .selectFrom('items')
    .selectAll()
    .where('account_id', '=', caller.accountId)
    .where('collection_id', '=', input.collection)
    .where('id', '=', input.item)
    .executeTakeFirst();
  const before = row ? toFull(row, ctx.core.limits.readContentMaxChars) : null;
  const base = { collection, item: input.item, before };
  if (tool === 'item_delete') return { ...base, action: 'delete', after: null };
  const write = input as WriteInput;
  if (collection.kind === 'inbox') {
    if (write.content !== undefined) {
      throw new DioscError('unsupported_input', 'Inbox writes edit message metadata only.');
    }
    return { ...base, action: 'metadata', after: { metadata: { ...before?.metadata, ...write.metadata } } };
  }
  if (write.metadata !== undefined || write.content === undefined) {
    throw new DioscError(
      'unsupported_input',
      'Message metadata applies to inbox items only; give `content`.',
    );
  }
  if (write.ifMatch === undefined && write.ifNoneMatch === undefined) {
    throw new DioscError(
      'invalid_input',
      'Storage writes are conditional: give ifNoneMatch "*" to create or ifMatch to replace.',
    );
  }
  const creating = write.ifNoneMatch === '*';
  return {
    ...base,
    action: creating ? 'create' : 'replace',
    after: {
      title: write.content.title ?? (creating ? write.item : (before?.title ?? write.item)),
      content: write.content.body,
      contentType:
        write.content.contentType ?? (creating ? 'text/plain' : (before?.contentType ?? 'text/plain')),
    },
  };
}
