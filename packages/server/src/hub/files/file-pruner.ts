import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../store/schema.js';

/** An upload still `writing` after this long was cut off (a crash, a dropped connection). */
export const ABANDONED_WRITE_MS = 60 * 60 * 1000;
const BATCH = 100;
const MAX_BATCHES = 50;

/**
 * Removes the bytes of files past their retention (the row stays as `expired`, so a chip in an old
 * message downloads as `file_expired` rather than vanishing) and deletes uploads abandoned while
 * writing. Works in batches so one run never holds a long transaction.
 */
export async function pruneFiles(
  db: Kysely<Database>,
  clock: Clock,
): Promise<{ expired: number; abandoned: number }> {
  const counts = { expired: 0, abandoned: 0 };
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const now = clock.now();
    const expired = await db
      .selectFrom('hub_files')
      .select('id')
      .where('status', '=', 'complete')
      .where('expires_at', '<=', now)
      .limit(BATCH)
      .execute();
    const abandoned = await db
      .selectFrom('hub_files')
      .select('id')
      .where('status', '=', 'writing')
      .where('created_at', '<=', now - ABANDONED_WRITE_MS)
      .limit(BATCH)
      .execute();
    if (expired.length === 0 && abandoned.length === 0) break;
    await db.transaction().execute(async (trx) => {
      const ids = [...expired, ...abandoned].map((row) => row.id);
      await trx.deleteFrom('hub_file_chunks').where('file_id', 'in', ids).execute();
      if (expired.length > 0) {
        await trx
          .updateTable('hub_files')
          .set({ status: 'expired' })
          .where(
            'id',
            'in',
            expired.map((row) => row.id),
          )
          .execute();
      }
      if (abandoned.length > 0) {
        await trx
          .deleteFrom('hub_files')
          .where(
            'id',
            'in',
            abandoned.map((row) => row.id),
          )
          .execute();
      }
    });
    counts.expired += expired.length;
    counts.abandoned += abandoned.length;
  }
  return counts;
}
