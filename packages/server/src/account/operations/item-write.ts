import {
  DioscError,
  type MessageMetadata,
  type OperationInputs,
  type OperationOutputs,
} from '@diosc/protocol';
import type { Transaction } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { CallerContext } from '../caller-context.js';
import type { CollectionRecord } from '../collections.js';
import type { OperationContext } from '../context.js';
import { byteSize, findItemRow, type ItemRow, itemVersion, toSummary } from '../item-view.js';
import { type MutationOutcome, runMutation } from '../mutation.js';
import { assertWithinQuota } from '../quotas.js';
import { planWrite } from '../write-plan.js';

type WriteInput = OperationInputs['item_write'];
type WriteOutput = OperationOutputs['item_write'];

/**
 * item_write. Inbox: message metadata only. Storage: conditional create (ifNoneMatch "*") or
 * conditional replace (ifMatch). External: refused by the kind check as unavailable. The caller has
 * already been authorized for `collection` by the core.
 */
export async function itemWrite(
  ctx: OperationContext,
  input: WriteInput,
  caller: CallerContext,
  collection: CollectionRecord,
): Promise<MutationOutcome<WriteOutput>> {
  const action = planWrite(collection.kind, input);
  return runMutation(ctx, caller, 'item_write', input, (trx) => {
    if (action === 'metadata') return writeMessageMetadata(ctx, trx, caller, input);
    if (action === 'create') return createStorageItem(ctx, trx, caller, input);
    return replaceStorageItem(ctx, trx, caller, input);
  });
}

function currentRow(trx: Transaction<Database>, caller: CallerContext, input: WriteInput) {
  return findItemRow(trx, { accountId: caller.accountId, collection: input.collection, item: input.item });
}

function assertVersion(row: ItemRow, ifMatch: string | undefined): void {
  if (ifMatch !== undefined && itemVersion(row) !== ifMatch) {
    throw new DioscError(
      'precondition_failed',
      `Item "${row.id}" is at version ${itemVersion(row)}, not ${ifMatch}.`,
      {
        details: { currentVersion: itemVersion(row) },
      },
    );
  }
}

/** Compare-and-set on the version column: the row changes only if nobody changed it first. */
async function updateIfUnchanged(
  trx: Transaction<Database>,
  row: ItemRow,
  changes: Partial<Pick<ItemRow, 'title' | 'content' | 'content_type' | 'metadata' | 'size_bytes'>>,
  now: number,
): Promise<ItemRow> {
  const next = { ...row, ...changes, version: row.version + 1, updated_at: now };
  const updated = await trx
    .updateTable('items')
    .set({ ...changes, version: next.version, updated_at: now })
    .where('account_id', '=', row.account_id)
    .where('collection_id', '=', row.collection_id)
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) {
    throw new DioscError('precondition_failed', `Item "${row.id}" changed while this write was applied.`);
  }
  return next;
}

async function writeMessageMetadata(
  ctx: OperationContext,
  trx: Transaction<Database>,
  caller: CallerContext,
  input: WriteInput,
): Promise<WriteOutput> {
  const row = await currentRow(trx, caller, input);
  if (!row)
    throw new DioscError('not_found', `There is no message "${input.item}" in "${input.collection}".`);
  assertVersion(row, input.ifMatch);
  const metadata: MessageMetadata = {
    ...(row.metadata ? (JSON.parse(row.metadata) as MessageMetadata) : {}),
    ...input.metadata,
  };
  const next = await updateIfUnchanged(trx, row, { metadata: JSON.stringify(metadata) }, ctx.clock.now());
  return { collection: input.collection, item: toSummary(next), created: false };
}

async function createStorageItem(
  ctx: OperationContext,
  trx: Transaction<Database>,
  caller: CallerContext,
  input: WriteInput,
): Promise<WriteOutput> {
  const content = input.content!;
  const size = byteSize(content.body);
  await assertWithinQuota(trx, caller.accountId, ctx.limits, { itemsDelta: 1, bytesDelta: size });
  const now = ctx.clock.now();
  const row: ItemRow = {
    account_id: caller.accountId,
    collection_id: input.collection,
    id: input.item,
    title: content.title ?? input.item,
    content_type: content.contentType ?? 'text/plain',
    content: content.body,
    metadata: null,
    version: 1,
    size_bytes: size,
    created_at: now,
    updated_at: now,
  };
  const inserted = await trx
    .insertInto('items')
    .values(row)
    .onConflict((conflict) => conflict.columns(['account_id', 'collection_id', 'id']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) {
    throw new DioscError(
      'precondition_failed',
      `Item "${input.item}" already exists; replace it with ifMatch.`,
    );
  }
  return { collection: input.collection, item: toSummary(row), created: true };
}

async function replaceStorageItem(
  ctx: OperationContext,
  trx: Transaction<Database>,
  caller: CallerContext,
  input: WriteInput,
): Promise<WriteOutput> {
  const content = input.content!;
  const row = await currentRow(trx, caller, input);
  if (!row) {
    throw new DioscError(
      'precondition_failed',
      `Item "${input.item}" does not exist; create it with ifNoneMatch "*".`,
    );
  }
  assertVersion(row, input.ifMatch);
  const size = byteSize(content.body);
  await assertWithinQuota(trx, caller.accountId, ctx.limits, {
    itemsDelta: 0,
    bytesDelta: size - row.size_bytes,
  });
  const next = await updateIfUnchanged(
    trx,
    row,
    {
      title: content.title ?? row.title,
      content: content.body,
      content_type: content.contentType ?? row.content_type,
      size_bytes: size,
    },
    ctx.clock.now(),
  );
  return { collection: input.collection, item: toSummary(next), created: false };
}
