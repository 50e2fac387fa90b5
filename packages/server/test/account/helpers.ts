import { createHash } from 'node:crypto';
import { DioscError, type ErrorCode } from '@diosc/protocol';
import { type DIALECTS, openTestStore, seedItems, type TestStore } from '@diosc/server/testing';
import { expect } from 'vitest';
import type { CallerContext, Grant } from '../../src/account/caller-context.js';
import { type AccountCore, createAccountCore } from '../../src/account/core.js';
import type { AccountLimits } from '../../src/account/limits.js';
import type { Store } from '../../src/store/dialect.js';

export interface CoreFixture extends TestStore {
  core: AccountCore;
  owner: CallerContext;
}

/** A fresh seeded store (owner + demo inbox/notes/drive) and a core over it on the manual clock. */
export async function openCore(
  dialect: (typeof DIALECTS)[number],
  limits: Partial<AccountLimits> = {},
): Promise<CoreFixture> {
  const test = await openTestStore(dialect);
  const core = createAccountCore({ store: test.store, clock: test.clock, limits });
  return { ...test, core, owner: callerFor(test.accountId, { kind: 'all' }, 'owner:test') };
}

export function callerFor(accountId: string, grant: Grant, actor = `conn:${accountId}`): CallerContext {
  return { accountId, actor, via: grant.kind === 'all' ? 'owner' : 'http_mcp', grant };
}

/** Every row of the tables an operation may change, in a stable order: the "nothing changed" probe. */
export async function snapshot(store: Store) {
  const items = await store.db
    .selectFrom('items')
    .selectAll()
    .orderBy('account_id')
    .orderBy('collection_id')
    .orderBy('id')
    .execute();
  const receipts = await store.db
    .selectFrom('receipts')
    .selectAll()
    .orderBy('actor')
    .orderBy('request_id')
    .execute();
  const collections = await store.db
    .selectFrom('collections')
    .selectAll()
    .orderBy('account_id')
    .orderBy('id')
    .execute();
  return { items, receipts, collections };
}

/** A digest of the snapshot, for checks repeated thousands of times. */
export async function snapshotDigest(store: Store): Promise<string> {
  return createHash('sha256')
    .update(JSON.stringify(await snapshot(store)))
    .digest('hex');
}

export async function itemRow(store: Store, accountId: string, collection: string, id: string) {
  return store.db
    .selectFrom('items')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('collection_id', '=', collection)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function receiptRow(store: Store, actor: string, requestId: string) {
  return store.db
    .selectFrom('receipts')
    .selectAll()
    .where('actor', '=', actor)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

/** Awaits a call that must be refused; returns the typed error for further checks. */
export async function refusal(call: Promise<unknown>, code: ErrorCode): Promise<DioscError> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  expect(DioscError.isInstance(caught), `expected a DioscError ${code}, got ${String(caught)}`).toBe(true);
  const error = caught as DioscError;
  expect(error.code, error.message).toBe(code);
  expect(error.message).not.toMatch(/[<>]/);
  return error;
}

/** Runs `call`, expects refusal `code`, and asserts that items, receipts and collections are unchanged. */
export async function refusedWithoutChange(
  fixture: Pick<CoreFixture, 'store'>,
  call: () => Promise<unknown>,
  code: ErrorCode,
): Promise<DioscError> {
  const before = await snapshot(fixture.store);
  const error = await refusal(call(), code);
  expect(await snapshot(fixture.store)).toEqual(before);
  return error;
}

/** Inserts `count` storage items straight into the store (fixtures for bounds tests). */
export function insertItems(
  store: Store,
  accountId: string,
  collection: string,
  count: number,
  at: number,
): Promise<void> {
  return seedItems(store, accountId, collection, count, { at });
}
