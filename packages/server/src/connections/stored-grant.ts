import type { Grant } from '../account/caller-context.js';
import { exposedFunctions, type GrantEntry, toGrant } from './grant.js';

/** A stored grant read once: its entries, the core's form, and the catalog functions it exposes. */
export interface StoredGrant {
  readonly entries: readonly GrantEntry[];
  readonly grant: Grant;
  readonly exposed: readonly string[];
}

const MAX_KEPT = 1_000;

/**
 * The parsed form of a connection's stored grant JSON, kept by the JSON text itself. The row is
 * still read on every call (so a change or revocation shows on the very next one); what is kept is
 * only the work of turning the same text into the same objects again. Keyed by the grant (which
 * collections, which functions — never a token or any secret); frozen, so no caller can change
 * what another one gets. Bounded: distinct grants are few, and the oldest is dropped first.
 */
export function createStoredGrants() {
  const kept = new Map<string, StoredGrant>();
  return {
    parse(json: string): StoredGrant {
      let stored = kept.get(json);
      if (!stored) {
        const entries = deepFreeze(JSON.parse(json) as GrantEntry[]);
        stored = Object.freeze({
          entries,
          grant: deepFreeze(toGrant(entries)),
          exposed: Object.freeze(exposedFunctions(entries)),
        });
        if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
        kept.set(json, stored);
      }
      return stored;
    },
  };
}

export type StoredGrants = ReturnType<typeof createStoredGrants>;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
