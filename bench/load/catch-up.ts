// Before reconciling, the streams must have received what the log holds (an operation that failed
// may still have had events on their way). Waits a bounded time; reconciliation then judges.

import type { Database } from '@diosc/server/testing';
import type { Kysely } from 'kysely';

export async function streamsCaughtUp(
  db: Kysely<Database>,
  received: () => Record<string, number>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = received();
    const rows = await db
      .selectFrom('hub_events')
      .select(['conversation_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('conversation_id', 'in', Object.keys(counts).length ? Object.keys(counts) : [''])
      .groupBy('conversation_id')
      .execute();
    if (rows.every((row) => Number(row.n) === counts[row.conversation_id])) return;
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
