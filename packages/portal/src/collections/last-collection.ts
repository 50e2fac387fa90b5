import type { CollectionRow } from '@diosc/protocol';

const LAST_COLLECTION = 'diosc.lastCollection';

/**
 * The collection to open when none is named (after sign-in, or at `/collections`): the one last
 * opened in this browser if it still exists, else the inbox, else the first. Only the ID is kept.
 */
export function defaultCollection(collections: readonly CollectionRow[]): CollectionRow | undefined {
  let last: string | null = null;
  try {
    last = localStorage.getItem(LAST_COLLECTION);
  } catch {
    // No storage: fall back to the inbox.
  }
  return (
    collections.find((row) => row.id === last) ??
    collections.find((row) => row.kind === 'inbox') ??
    collections[0]
  );
}

export function rememberCollection(id: string): void {
  try {
    localStorage.setItem(LAST_COLLECTION, id);
  } catch {
    // Not remembered; the inbox opens next time.
  }
}
