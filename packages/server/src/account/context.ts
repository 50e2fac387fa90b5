import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../store/schema.js';
import type { HotReads } from './hot-reads.js';
import type { InsideWrite } from './inside-write.js';
import type { AccountLimits } from './limits.js';
import type { Receipts } from './receipts.js';

/** What every operation implementation is handed. Built once per core; never global. */
export interface OperationContext {
  db: Kysely<Database>;
  clock: Clock;
  limits: AccountLimits;
  receipts: Receipts;
  /** Test seam: awaited inside each write's transaction, before it commits (see `InsideWrite`). */
  insideWrite?: InsideWrite;
  /** The per-call reads, compiled once (committed data, read on every call). */
  reads: HotReads;
}
