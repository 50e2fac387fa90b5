import { canonicalJson } from '@diosc/protocol';
import { sha256Hex } from '../account/digest.js';
import type { GrantEntry } from './grant.js';

/** The digest an audit record keeps of a grant: SHA-256 of its canonical JSON. */
export function grantDigest(grant: readonly GrantEntry[]): string {
  return sha256Hex(canonicalJson(grant));
}

/** The collections whose allowed functions differ between two grants (added, removed or changed). */
export function changedCollections(before: readonly GrantEntry[], after: readonly GrantEntry[]): string[] {
  const functionsOf = (grant: readonly GrantEntry[]) =>
    new Map(grant.map((entry) => [entry.collection, [...entry.functions].sort().join(',')]));
  const old = functionsOf(before);
  const next = functionsOf(after);
  const names = new Set([...old.keys(), ...next.keys()]);
  return [...names].filter((name) => old.get(name) !== next.get(name)).sort();
}
