import type { CollectionFunction, CollectionKind } from '@diosc/protocol';

/** The functions each kind of collection supports, whoever calls. */
export const KIND_FUNCTIONS: Record<CollectionKind, readonly CollectionFunction[]> = {
  inbox: ['items_list', 'item_read', 'item_write'],
  storage: ['items_list', 'item_read', 'item_write', 'item_delete'],
  external: ['items_list', 'item_read'],
};

export const UNAVAILABLE_REASON: Record<CollectionKind, string> = {
  inbox: 'Inbox messages cannot be deleted here; archive them with item_write metadata instead.',
  storage: 'This function is not available on storage collections.',
  external: 'External provider collections are read-only mirrors; writes and deletes are unavailable.',
};

export function kindSupports(kind: CollectionKind, fn: CollectionFunction): boolean {
  return KIND_FUNCTIONS[kind].includes(fn);
}
