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
  /** The title of item `i` (default `Item i`). */
  title?: (index: number) => string;
}

/**
 * Adds generated storage items (`item-00000`, `item-00001`, …) to an existing collection of the
 * account, straight to the store: fixtures for bounds tests and benchmarks.
 */
export async function seedItems(
  store: Store,
  accountId: string,
  collection: string,
  count: number,
  options: Omit<SeedOptions, 'items'> = {},
): Promise<void> {
  const at = options.at ?? Date.now();
  const body = options.body ?? ((index: number) => `body ${index}`);
  const title = options.title ?? ((index: number) => `Item ${index}`);
  await insertItemRows(
    store.db,
    Array.from({ length: count }, (_, index) => {
      const content = body(index);
      return {
        account_id: accountId,
        collection_id: collection,
        id: `item-${String(index).padStart(5, '0')}`,
        title: title(index),
        content_type: 'text/plain',
        content,
        metadata: null,
        version: 1,
        size_bytes: byteSize(content),
        created_at: at,
        // Many rows share a timestamp, so a keyset's tie-breaker (id) is exercised too.
        updated_at: at - Math.floor(index / 7),
      };
    }),
  );
}

/**
 * Adds a collection of the account, with `options.items` generated items in it (see `seedItems`).
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
  await createCollection(store.db, accountId, collection, at);
  await seedItems(store, accountId, collection.id, options.items ?? 0, { ...options, at });
}
