import { type CollectionRow, DioscError, type OperationInputs, type OperationOutputs } from '@diosc/protocol';
import { type CallerContext, grantedFunctions, grantNamesAnyCollection } from '../caller-context.js';
import type { OperationContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import { KIND_FUNCTIONS } from '../kinds.js';

/**
 * Lists the caller's collections; both the rows and each row's functions are filtered by the grant.
 * A collection whose provider source was disconnected is still listed to a caller granted anything
 * on it — with no functions and `state: 'disconnected'` — rather than vanishing silently.
 */
export async function collectionsList(
  ctx: OperationContext,
  input: OperationInputs['collections_list'],
  caller: CallerContext,
): Promise<OperationOutputs['collections_list']> {
  if (!grantNamesAnyCollection(caller.grant)) {
    throw new DioscError('not_granted', 'This caller is not granted any collection.');
  }
  const limit = input.limit ?? ctx.limits.defaultPageSize;
  const after = input.cursor ? decodeCursor<[string]>(input.cursor, ['string'])[0] : undefined;
  let query = ctx.db
    .selectFrom('collections as c')
    .select((eb) => [
      'c.id',
      'c.kind',
      'c.title',
      'c.source_disconnected_at',
      eb
        .selectFrom('items as i')
        .select(eb.fn.countAll<number | string>().as('n'))
        .whereRef('i.account_id', '=', 'c.account_id')
        .whereRef('i.collection_id', '=', 'c.id')
        .as('item_count'),
    ])
    .where('c.account_id', '=', caller.accountId)
    .orderBy('c.id')
    .limit(limit + 1);
  if (after !== undefined) query = query.where('c.id', '>', after);
  if (caller.grant.kind === 'exact') {
    const ids = Object.keys(caller.grant.collections);
    query = query.where('c.id', 'in', ids.length > 0 ? ids : ['']);
  }
  const rows = await query.execute();
  const collections: CollectionRow[] = [];
  for (const row of rows.slice(0, limit)) {
    const granted = grantedFunctions(caller.grant, row.id);
    const functions = KIND_FUNCTIONS[row.kind].filter((fn) => granted === 'all' || granted.includes(fn));
    if (functions.length === 0) continue;
    const disconnected = row.source_disconnected_at !== null;
    collections.push({
      id: row.id,
      kind: row.kind,
      title: row.title,
      itemCount: Number(row.item_count ?? 0),
      functions: disconnected ? [] : functions,
      ...(disconnected ? { state: 'disconnected' as const } : {}),
    });
  }
  const last = rows[limit - 1];
  return { collections, nextCursor: rows.length > limit && last ? encodeCursor([last.id]) : null };
}
