import type { OperationInputs, OperationOutputs } from '@diosc/protocol';
import type { CallerContext } from '../caller-context.js';
import type { OperationContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { toSummary } from '../item-view.js';

/** One bounded page of a collection, newest change first (keyset pagination on updated_at, id). */
export async function itemsList(
  ctx: OperationContext,
  input: OperationInputs['items_list'],
  caller: CallerContext,
): Promise<OperationOutputs['items_list']> {
  const limit = input.limit ?? ctx.limits.defaultPageSize;
  // One row more than the page tells whether there is a next one.
  const rows = input.cursor
    ? await ctx.reads.pageAfter(
        caller.accountId,
        input.collection,
        ...decodeCursor<[number, string]>(input.cursor, ['number', 'string']),
        limit + 1,
      )
    : await ctx.reads.firstPage(caller.accountId, input.collection, limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    collection: input.collection,
    items: page.map(toSummary),
    nextCursor: rows.length > limit && last ? encodeCursor([last.updated_at, last.id]) : null,
  };
}
