import type { Store } from '../store/dialect.js';
import { prepareRead } from '../store/prepared-read.js';
import { prepareVersionedRead } from '../store/versioned-read.js';
import { SUMMARY_COLUMNS } from './item-view.js';

/**
 * The reads nearly every call makes, compiled once per core (see `prepareRead`) and run on the
 * store's read path: committed data as of this very call — the collection lookup reuses an answer
 * only while nothing was committed since (`prepareVersionedRead`), so a disconnected source or a
 * removed collection shows on the very next one.
 */
export function createHotReads(store: Pick<Store, 'db' | 'read' | 'dataVersion'>) {
  return {
    /**
     * A collection as stored: the record, and when its provider source was disconnected. Reused
     * until the next commit to the store (`prepareVersionedRead`), so still current on every call.
     */
    collection: prepareVersionedRead(store, (db, accountId: string, id: string) =>
      db
        .selectFrom('collections')
        .select(['id', 'kind', 'title', 'source_disconnected_at as disconnectedAt'])
        .where('account_id', '=', accountId)
        .where('id', '=', id),
    ),
    /** The first `limit` summaries of a collection, newest change first (items_list's order). */
    firstPage: prepareRead(store, (db, accountId: string, collection: string, limit: number) =>
      db
        .selectFrom('items')
        .select(SUMMARY_COLUMNS)
        .where('account_id', '=', accountId)
        .where('collection_id', '=', collection)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'asc')
        .limit(limit),
    ),
    /** The next `limit` summaries after the keyset (updatedAt, id). */
    pageAfter: prepareRead(
      store,
      (db, accountId: string, collection: string, updatedAt: number, id: string, limit: number) =>
        db
          .selectFrom('items')
          .select(SUMMARY_COLUMNS)
          .where('account_id', '=', accountId)
          .where('collection_id', '=', collection)
          .where((eb) =>
            eb.or([
              eb('updated_at', '<', updatedAt),
              eb.and([eb('updated_at', '=', updatedAt), eb('id', '>', id)]),
            ]),
          )
          .orderBy('updated_at', 'desc')
          .orderBy('id', 'asc')
          .limit(limit),
    ),
  };
}

export type HotReads = ReturnType<typeof createHotReads>;
