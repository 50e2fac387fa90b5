import { COLLECTION_FUNCTIONS, type CollectionFunction, DioscError, type GrantEntry } from '@diosc/protocol';

export type { GrantEntry };

import type { Kysely } from 'kysely';
import type { Grant } from '../account/caller-context.js';
import { collectionKinds } from '../account/collections.js';
import { KIND_FUNCTIONS } from '../account/kinds.js';
import type { Database } from '../store/schema.js';

export function toGrant(entries: readonly GrantEntry[]): Grant {
  const collections: Record<string, CollectionFunction[]> = {};
  for (const entry of entries) collections[entry.collection] = [...entry.functions];
  return { kind: 'exact', collections };
}

export function isGrantEntries(value: unknown): value is GrantEntry[] {
  return (
    Array.isArray(value) &&
    value.every(
      (entry) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as GrantEntry).collection === 'string' &&
        Array.isArray((entry as GrantEntry).functions) &&
        (entry as GrantEntry).functions.every((fn) =>
          (COLLECTION_FUNCTIONS as readonly string[]).includes(fn),
        ),
    )
  );
}

const ENTRY_FIELDS = new Set(['collection', 'functions']);

/**
 * Refuses what a grant's shape cannot carry, at every depth, as the body's top level does: a field
 * other than `collection` and `functions` in an entry (an `"all": true` or a `"collections"` list
 * would otherwise be dropped, and the grant stored narrower than its author believed), and a
 * function named twice in one entry (it would otherwise be merged). Both are `invalid_input`.
 */
export function assertGrantShape(value: unknown, name = 'grant'): void {
  if (!Array.isArray(value)) return;
  for (const [index, entry] of value.entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    for (const key of Object.keys(entry)) {
      if (!ENTRY_FIELDS.has(key)) {
        throw new DioscError(
          'invalid_input',
          `Unknown field "${key.slice(0, 64)}" in ${name} entry ${index}.`,
        );
      }
    }
    const functions = (entry as { functions?: unknown }).functions;
    if (Array.isArray(functions) && new Set(functions).size !== functions.length) {
      throw new DioscError('invalid_input', `A function is named twice in ${name} entry ${index}.`);
    }
  }
}

/**
 * Checks a requested grant against the account's current collections: every collection must exist
 * and every function must be one its kind supports. Returns the entries normalized (sorted, unique).
 * Refuses with `selection_invalid`; never widens what was asked.
 */
export async function validateGrant(
  db: Kysely<Database>,
  accountId: string,
  entries: unknown,
): Promise<GrantEntry[]> {
  assertGrantShape(entries);
  if (!isGrantEntries(entries) || entries.length === 0 || entries.length > 200) {
    throw new DioscError('selection_invalid', 'Give a non-empty list of { collection, functions } entries.');
  }
  const kinds = await collectionKinds(db, accountId);
  const seen = new Set<string>();
  const normalized: GrantEntry[] = [];
  for (const entry of entries) {
    const kind = kinds.get(entry.collection);
    if (!kind) throw new DioscError('selection_invalid', `There is no collection "${entry.collection}".`);
    if (seen.has(entry.collection))
      throw new DioscError('selection_invalid', `Collection "${entry.collection}" is listed twice.`);
    seen.add(entry.collection);
    const functions = entry.functions;
    if (functions.length === 0)
      throw new DioscError('selection_invalid', `Choose at least one function for "${entry.collection}".`);
    for (const fn of functions) {
      if (!KIND_FUNCTIONS[kind].includes(fn)) {
        throw new DioscError(
          'selection_invalid',
          `${fn} is not available on ${kind} collection "${entry.collection}".`,
        );
      }
    }
    normalized.push({
      collection: entry.collection,
      functions: COLLECTION_FUNCTIONS.filter((fn) => functions.includes(fn)),
    });
  }
  return normalized.sort((a, b) => a.collection.localeCompare(b.collection));
}

/** The catalog functions a grant exposes: collections_list plus each function granted somewhere. */
export function exposedFunctions(entries: readonly GrantEntry[]): string[] {
  if (entries.length === 0) return [];
  const granted = new Set(entries.flatMap((entry) => entry.functions));
  return ['collections_list', ...COLLECTION_FUNCTIONS.filter((fn) => granted.has(fn))];
}
