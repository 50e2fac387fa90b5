import type { ItemFull, ItemSummary, MessageMetadata } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Database, ItemsTable } from '../store/schema.js';

export type ItemRow = ItemsTable;

export function itemVersion(row: Pick<ItemRow, 'version'>): string {
  return String(row.version);
}

/** The columns a summary needs; lists select only these, never item content. */
export const SUMMARY_COLUMNS = ['id', 'title', 'version', 'updated_at', 'size_bytes', 'metadata'] as const;

export function toSummary(row: Pick<ItemRow, (typeof SUMMARY_COLUMNS)[number]>): ItemSummary {
  const summary: ItemSummary = {
    id: row.id,
    title: row.title,
    version: itemVersion(row),
    updatedAt: new Date(row.updated_at).toISOString(),
    sizeBytes: row.size_bytes,
  };
  if (row.metadata !== null) summary.metadata = JSON.parse(row.metadata) as MessageMetadata;
  return summary;
}

export function toFull(row: ItemRow, maxChars: number): ItemFull {
  const truncated = row.content.length > maxChars;
  return {
    ...toSummary(row),
    contentType: row.content_type,
    content: truncated ? cutAt(row.content, maxChars) : row.content,
    truncated,
  };
}

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair (which would not be valid text). */
function cutAt(text: string, max: number): string {
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

export function byteSize(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Inserts stored rows as they are (first-run demo data, test and benchmark fixtures), 500 at a time. */
export async function insertItemRows(db: Kysely<Database>, rows: readonly ItemRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('items')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/** The stored row of one item, or undefined; `db` may be a transaction. */
export function findItemRow(
  db: Kysely<Database>,
  key: { accountId: string; collection: string; item: string },
): Promise<ItemRow | undefined> {
  return db
    .selectFrom('items')
    .selectAll()
    .where('account_id', '=', key.accountId)
    .where('collection_id', '=', key.collection)
    .where('id', '=', key.item)
    .executeTakeFirst();
}
