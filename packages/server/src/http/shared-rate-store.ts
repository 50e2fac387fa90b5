import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { type Kysely, sql } from 'kysely';
import type { Store } from '../store/dialect.js';
import type { Database } from '../store/schema.js';

type Reply = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** What `@fastify/rate-limit` hands a store's `child`: the merged options of one limit. */
interface LimitParams {
  timeWindow?: unknown;
  max?: unknown;
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * A limit's namespace, the same on every instance of one release: the route and its window and
 * maximum (a `createRateLimit` limiter has no route, so the sign-in's two limits differ by those).
 */
function namespaceOf(params: LimitParams): string {
  const method = [params.routeInfo?.method ?? ''].flat().join(',');
  const max = typeof params.max === 'number' ? params.max : 'fn';
  return `${method} ${params.routeInfo?.url ?? ''} ${String(params.timeWindow)} ${max}`;
}

/**
 * A `@fastify/rate-limit` store over the store's `rate_windows` table, so the instances over one
 * PostgreSQL count one budget (fixed windows, like the plugin's own in-memory store). One upsert
 * per counted request: it starts a new window when the old one has ended and counts otherwise, in
 * one statement, so two instances counting at once never lose a hit.
 */
export function sharedRateStore(db: Kysely<Database>) {
  return class SharedRateStore {
    readonly namespace: string;

    constructor(params: object = {}) {
      this.namespace = namespaceOf(params as LimitParams);
    }

    incr(key: string, reply: Reply, timeWindow: number): void {
      const now = Date.now();
      const ended = sql<boolean>`rate_windows.window_start + ${sql.lit(timeWindow)} <= cast(${now} as bigint)`;
      db.insertInto('rate_windows')
        .values({ bucket: `${this.namespace}|${key}`, window_start: now, hits: 1 })
        .onConflict((conflict) =>
          conflict.column('bucket').doUpdateSet({
            hits: sql`case when ${ended} then 1 else rate_windows.hits + 1 end`,
            window_start: sql`case when ${ended} then cast(${now} as bigint) else rate_windows.window_start end`,
          }),
        )
        .returning(['hits', 'window_start'])
        .executeTakeFirstOrThrow()
        .then(
          (row) =>
            reply(null, { current: Number(row.hits), ttl: Number(row.window_start) + timeWindow - now }),
          (error: Error) => reply(error),
        );
    }

    /** The window as it stands, counting nothing (the sign-in's check before a password is tried). */
    read(key: string, reply: Reply, timeWindow: number): void {
      const now = Date.now();
      db.selectFrom('rate_windows')
        .select(['hits', 'window_start'])
        .where('bucket', '=', `${this.namespace}|${key}`)
        .executeTakeFirst()
        .then(
          (row) =>
            !row || Number(row.window_start) + timeWindow <= now
              ? reply(null, { current: 0, ttl: 0 })
              : reply(null, { current: Number(row.hits), ttl: Number(row.window_start) + timeWindow - now }),
          (error: Error) => reply(error),
        );
    }

    child(params: object): SharedRateStore {
      return new SharedRateStore(params);
    }
  };
}

/**
 * The `store` option of `@fastify/rate-limit` for this store: shared through PostgreSQL, where
 * several instances may serve; the plugin's in-memory store on SQLite (one process).
 */
export function rateLimitStoreOption(store: Store): { store?: FastifyRateLimitStoreCtor } {
  return store.dialect === 'postgres' ? { store: sharedRateStore(store.db) } : {};
}

/** Deletes windows that ended long ago (every limit's window is far shorter than a day). */
export async function pruneRateWindows(
  db: Kysely<Database>,
  olderThanMs = 24 * 60 * 60 * 1000,
): Promise<void> {
  await db
    .deleteFrom('rate_windows')
    .where('window_start', '<', Date.now() - olderThanMs)
    .execute();
}
