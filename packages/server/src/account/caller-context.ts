import type { CallChannel, CollectionFunction } from '@diosc/protocol';

/**
 * What a caller may touch. `all` is the signed-in owner acting in their own portal; `exact` is a
 * connection's grant: collection IDs mapped to the functions allowed on each, and nothing else —
 * a collection created later is simply absent.
 */
export type Grant =
  | { kind: 'all' }
  | { kind: 'exact'; collections: Readonly<Record<string, readonly CollectionFunction[]>> };

/**
 * Whether the caller gave up on a call: all the core reads of its cancellation. An `AbortSignal`
 * is one; `/mcp` passes a plain flag (`mcp/request-cancel.ts`), which costs nothing to make.
 */
export type CallSignal = Pick<AbortSignal, 'aborted'>;

/** Who is calling, through what, and with what authority. Transports build it; the core trusts only it. */
export interface CallerContext {
  accountId: string;
  /** Receipt namespace: request IDs are unique per actor. */
  actor: string;
  /** The way the call came in; the usage record files it under this. */
  via: CallChannel;
  connectionId?: string;
  grant: Grant;
  signal?: CallSignal;
  /**
   * The store's change counter (`Store.dataVersion`) as read at the start of this very call, when
   * the transport read it: the authority lookups reuse it instead of reading it again. Never one
   * kept from an earlier call — a lookup given an old counter could miss a commit made since.
   */
  dataVersion?: number;
}

export function grantAllows(grant: Grant, collectionId: string, fn: CollectionFunction): boolean {
  if (grant.kind === 'all') return true;
  return (
    Object.hasOwn(grant.collections, collectionId) && (grant.collections[collectionId] ?? []).includes(fn)
  );
}

export function grantNamesAnyCollection(grant: Grant): boolean {
  return grant.kind === 'all' || Object.values(grant.collections).some((functions) => functions.length > 0);
}

export function grantedFunctions(grant: Grant, collectionId: string): readonly CollectionFunction[] | 'all' {
  if (grant.kind === 'all') return 'all';
  return Object.hasOwn(grant.collections, collectionId) ? (grant.collections[collectionId] ?? []) : [];
}
