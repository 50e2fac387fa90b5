import type { CollectionKind } from '@diosc/protocol';
import { createCollection } from '../account/collections.js';
import { byteSize, insertItemRows } from '../account/item-view.js';
import type { Store } from '../store/dialect.js';

export interface SeedOptions {
  /** How many storage items to add: `item-00000`, `item-00001`, … (none by default). */
  items?: number;
  /** Their creation time; the last change of item `i` is `at - floor(i / 7)` ms, so times tie. */
  at?: number;
  /** The text of item `i`. */
  body?: (index: number) => string;
}

/**
 * Adds a collection of the account, and generated items in it, straight to the store: fixtures for
 * bounds tests and benchmarks that need more than the first-run demo data.
 *
 * @example
 * await seedCollection(server.store, server.accountId, { id: 'big', kind: 'storage', title: 'Big' }, { items: 10_000 });
 */
export async function seedCollection(
  store: Store,
  accountId: string,
  collection: { id: string; kind: CollectionKind; title: string },
  options: SeedOptions = {},
): Promise<void> {
  const at = options.at ?? Date.now();
  const body = options.body ?? ((index: number) => `body ${index}`);
  await createCollection(store.db, accountId, collection, at);
  await insertItemRows(
    store.db,
    Array.from({ length: options.items ?? 0 }, (_, index) => {
      const content = body(index);
      return {
        account_id: accountId,
        collection_id: collection.id,
        id: `item-${String(index).padStart(5, '0')}`,
        title: `Item ${index}`,
        content_type: 'text/plain',
        content,
        metadata: null,
        version: 1,
        size_bytes: byteSize(content),
        created_at: at,
        updated_at: at - Math.floor(index / 7),
      };
    }),
  );
}
