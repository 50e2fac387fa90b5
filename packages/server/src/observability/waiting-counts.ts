import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { WaitingCounts } from './metrics.js';

/**
 * Counted in the store at scrape time, not kept in memory: an interrupt issued on one instance is
 * often answered on another, so only the store knows how many wait. Every instance reports the
 * same number — aggregate with `max`, not `sum`. The `(status, expires_at)` index serves it.
 */
export function waitingCountsOf(db: Kysely<Database>): WaitingCounts {
  return async () => {
    const rows = await db
      .selectFrom('hub_tool_calls')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('status', 'in', ['interrupt', 'consensus'])
      .groupBy('status')
      .execute();
    const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
    return { interrupt: count('interrupt'), consensus: count('consensus') };
  };
}
