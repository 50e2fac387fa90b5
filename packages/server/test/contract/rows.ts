import type { TestServer } from '@diosc/server/testing';

/**
 * Every row a call could change, in a fixed order: collections, items, app connections (without
 * the coarse last-used marker, which any call may move), mutation receipts and review receipts.
 * A refusal test compares it before and after.
 */
export async function accountRows(server: TestServer) {
  const db = server.store.db;
  const connections = await db.selectFrom('app_connections').selectAll().orderBy('id').execute();
  return {
    collections: await db.selectFrom('collections').selectAll().orderBy('account_id').orderBy('id').execute(),
    items: await db
      .selectFrom('items')
      .selectAll()
      .orderBy('account_id')
      .orderBy('collection_id')
      .orderBy('id')
      .execute(),
    connections: connections.map(({ last_used_at: _marker, ...row }) => row),
    receipts: await db.selectFrom('receipts').selectAll().orderBy('actor').orderBy('request_id').execute(),
    reviews: await db.selectFrom('review_receipts').selectAll().orderBy('id').execute(),
  };
}
