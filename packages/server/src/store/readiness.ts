import { sql } from 'kysely';
import type { Store } from './dialect.js';
import { MIGRATION_NAMES } from './migrations.js';

export type StoreReadiness = { ready: true } | { ready: false; reason: 'unreachable' | 'not_migrated' };

/**
 * A probe must answer even when the database hangs (a half-open TCP connection, a stopped VM):
 * past this the store counts as unreachable, so the load balancer takes the instance out instead of
 * piling probes up behind it.
 */
export const READINESS_TIMEOUT_MS = 2_000;

/** Kysely's own bookkeeping table: one row per applied migration. */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * Whether `store` can serve traffic now: it answers a query, and every migration of this build is
 * applied (an instance started against a database a newer or older build migrated, or one restored
 * from a backup taken mid-upgrade, must not take requests). Asked afresh on every probe, so an
 * instance recovers by itself when the database comes back — the pool opens new connections.
 */
export async function storeReadiness(
  store: Store,
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<StoreReadiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    return await Promise.race([check(store), timeout.then(() => notReady('unreachable'))]);
  } finally {
    clearTimeout(timer);
  }
}

async function check(store: Store): Promise<StoreReadiness> {
  try {
    await sql`select 1`.execute(store.db);
  } catch {
    return notReady('unreachable');
  }
  let applied: Set<string>;
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(
      store.db,
    );
    applied = new Set(rows.map((row) => row.name));
  } catch {
    // No bookkeeping table at all: nothing was ever migrated here.
    return notReady('not_migrated');
  }
  return MIGRATION_NAMES.every((name) => applied.has(name)) ? { ready: true } : notReady('not_migrated');
}

function notReady(reason: 'unreachable' | 'not_migrated'): StoreReadiness {
  return { ready: false, reason };
}
