import { type CollectionFunction, type CollectionKind, DioscError } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { type CallerContext, grantAllows } from './caller.js';
import { kindSupports, UNAVAILABLE_REASON } from './kinds.js';

export interface CollectionRecord {
  id: string;
  kind: CollectionKind;
  title: string;
}

export async function findCollection(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<CollectionRecord | undefined> {
  return db
    .selectFrom('collections')
    .select(['id', 'kind', 'title'])
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
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

/**
 * The authority check of every per-collection call, in a fixed order: the grant first (so an
 * ungranted caller learns nothing about existence), then ownership, then what the kind supports.
 */
export async function authorizeCollection(
  db: Kysely<Database>,
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
  const collection = await findCollection(db, caller.accountId, collectionId);
  if (!collection) throw new DioscError('not_found', `There is no collection "${collectionId}".`);
  if (!kindSupports(collection.kind, fn)) {
    throw new DioscError('unavailable', `${fn}: ${UNAVAILABLE_REASON[collection.kind]}`);
  }
  return collection;
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
    })
    .execute();
}
