import type { OperationInputs, OperationOutputs } from '@diosc/protocol';
import type { CallerContext } from '../caller.js';
import type { OperationContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { SUMMARY_COLUMNS, toSummary } from '../item-view.js';

/** One bounded page of a collection, newest change first (keyset pagination on updated_at, id). */
export async function itemsList(
  ctx: OperationContext,
  input: OperationInputs['items_list'],
  caller: CallerContext,
): Promise<OperationOutputs['items_list']> {
  const limit = input.limit ?? ctx.limits.defaultPageSize;
  let query = ctx.db
    .selectFrom('items')
    .select(SUMMARY_COLUMNS)
    .where('account_id', '=', caller.accountId)
    .where('collection_id', '=', input.collection)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'asc')
    .limit(limit + 1);
  if (input.cursor) {
    const [updatedAt, id] = decodeCursor<[number, string]>(input.cursor, ['number', 'string']);
    query = query.where((eb) =>
      eb.or([
        eb('updated_at', '<', updatedAt),
        eb.and([eb('updated_at', '=', updatedAt), eb('id', '>', id)]),
      ]),
    );
  }
  const rows = await query.execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    collection: input.collection,
    items: page.map(toSummary),
    nextCursor: rows.length > limit && last ? encodeCursor([last.updated_at, last.id]) : null,
  };
}
