import { type CollectionFunction, type CollectionKind, DioscError } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { type CallerContext, grantAllows } from './caller-context.js';
import type { HotReads } from './hot-reads.js';
import { kindSupports, UNAVAILABLE_REASON } from './kinds.js';

export interface CollectionRecord {
  id: string;
  kind: CollectionKind;
  title: string;
}

/** A collection as stored: the record, and when its provider source was disconnected (null: never). */
interface StoredCollection extends CollectionRecord {
  disconnectedAt: number | null;
}

/** The answer of every call naming a collection whose provider source is gone. */
function sourceRevoked(collectionId: string): DioscError {
  return new DioscError(
    'source_revoked',
    `The provider source of collection "${collectionId}" has been disconnected.`,
  );
}

async function findStored(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<StoredCollection | undefined> {
  return db
    .selectFrom('collections')
    .select(['id', 'kind', 'title', 'source_disconnected_at as disconnectedAt'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findCollection(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<CollectionRecord | undefined> {
  const stored = await findStored(db, accountId, id);
  return stored && { id: stored.id, kind: stored.kind, title: stored.title };
}

/** Each collection of the account by ID, with its kind (what a grant may name). */
export async function collectionKinds(
  db: Kysely<Database>,
  accountId: string,
): Promise<ReadonlyMap<string, CollectionKind>> {
  const rows = await db
    .selectFrom('collections')
    .select(['id', 'kind'])
    .where('account_id', '=', accountId)
    .execute();
  return new Map(rows.map((row) => [row.id, row.kind]));
}

/** Every collection of the account with its provider and source state, by ID (for the CLI). */
export async function listCollections(db: Kysely<Database>, accountId: string) {
  return db
    .selectFrom('collections')
    .select(['id', 'kind', 'title', 'provider', 'source_disconnected_at as disconnectedAt'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

/** IDs of the account's collections whose provider source has been disconnected. */
export async function disconnectedCollections(
  db: Kysely<Database>,
  accountId: string,
): Promise<ReadonlySet<string>> {
  const rows = await db
    .selectFrom('collections')
    .select('id')
    .where('account_id', '=', accountId)
    .where('source_disconnected_at', 'is not', null)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * The authority check of every per-collection call, in a fixed order: the grant first (so an
 * ungranted caller learns nothing about existence), then ownership, then the provider source (a
 * disconnected one answers every function alike), then what the kind supports.
 */
export async function authorizeCollection(
  reads: Pick<HotReads, 'collection'>,
  caller: CallerContext,
  collectionId: string,
  fn: CollectionFunction,
): Promise<CollectionRecord> {
  if (!grantAllows(caller.grant, collectionId, fn)) {
    throw new DioscError(
      'not_granted',
      `${fn} on collection "${collectionId}" is not granted to this caller.`,
    );
  }
  const kept = reads.collection.given(caller.dataVersion, caller.accountId, collectionId);
  const [stored] = kept instanceof Promise ? await kept : kept;
  if (!stored) throw new DioscError('not_found', `There is no collection "${collectionId}".`);
  if (stored.disconnectedAt !== null) throw sourceRevoked(collectionId);
  if (!kindSupports(stored.kind, fn)) {
    throw new DioscError('unavailable', `${fn}: ${UNAVAILABLE_REASON[stored.kind]}`);
  }
  return { id: stored.id, kind: stored.kind, title: stored.title };
}

/**
 * Asked again after a read of an external collection: a read that was already running when the
 * source was disconnected answers `source_revoked` rather than the mirror's data. (Only external
 * collections have a source, so other reads skip this query.)
 */
export async function assertSourceConnected(
  reads: Pick<HotReads, 'collection'>,
  accountId: string,
  collectionId: string,
): Promise<void> {
  const [stored] = await reads.collection(accountId, collectionId);
  if (!stored || stored.disconnectedAt !== null) throw sourceRevoked(collectionId);
}

/**
 * Disconnects the provider source of an external collection, once: the row, its items and every
 * grant naming it stay as they are, and from now on every call naming it answers `source_revoked`.
 * There is no reconnect (see docs/security-model.md); a second disconnect changes nothing.
 */
export async function disconnectSource(
  db: Kysely<Database>,
  accountId: string,
  collectionId: string,
  now: number,
): Promise<{ collection: CollectionRecord; disconnectedAt: number; changed: boolean }> {
  const stored = await findStored(db, accountId, collectionId);
  if (!stored) throw new DioscError('not_found', `There is no collection "${collectionId}".`);
  const collection = { id: stored.id, kind: stored.kind, title: stored.title };
  if (stored.kind !== 'external') {
    throw new DioscError(
      'unavailable',
      `Collection "${collectionId}" is ${stored.kind === 'inbox' ? 'an inbox' : 'hosted storage'}; only external collections have a provider source to disconnect.`,
    );
  }
  if (stored.disconnectedAt !== null) {
    return { collection, disconnectedAt: stored.disconnectedAt, changed: false };
  }
  const updated = await db
    .updateTable('collections')
    .set({ source_disconnected_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', collectionId)
    .where('source_disconnected_at', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return { collection, disconnectedAt: now, changed: true };
  // A concurrent disconnect won: report its time.
  const after = await findStored(db, accountId, collectionId);
  return { collection, disconnectedAt: after?.disconnectedAt ?? now, changed: false };
}

export async function createCollection(
  db: Kysely<Database>,
  accountId: string,
  collection: CollectionRecord & { provider?: string },
  now: number,
): Promise<void> {
  await db
    .insertInto('collections')
    .values({
      account_id: accountId,
      id: collection.id,
      kind: collection.kind,
      title: collection.title,
      provider: collection.provider ?? null,
      created_at: now,
      source_disconnected_at: null,
    })
    .execute();
}
