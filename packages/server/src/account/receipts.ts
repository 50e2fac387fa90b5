import { DioscError } from '@diosc/protocol';
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../store/schema.js';

export interface ReceiptKey {
  actor: string;
  requestId: string;
}

export type Claim = { kind: 'fresh' } | { kind: 'replay'; result: unknown };

/**
 * Durable mutation receipts. A write first claims its (actor, request ID) as in flight; the mutation
 * and the receipt's completion then commit in one transaction, so an acknowledged write always has
 * its receipt and a crash between claim and commit leaves only an expiring claim.
 */
export function createReceipts(db: Kysely<Database>, clock: Clock, leaseMs: number) {
  return {
    async claim(key: ReceiptKey, accountId: string, functionName: string, digest: string): Promise<Claim> {
      const now = clock.now();
      const inserted = await db
        .insertInto('receipts')
        .values({
          actor: key.actor,
          request_id: key.requestId,
          account_id: accountId,
          function_name: functionName,
          input_digest: digest,
          status: 'in_flight',
          result: null,
          lease_expires_at: now + leaseMs,
          created_at: now,
          completed_at: null,
        })
        .onConflict((conflict) => conflict.columns(['actor', 'request_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { kind: 'fresh' };

      const existing = await db
        .selectFrom('receipts')
        .selectAll()
        .where('actor', '=', key.actor)
        .where('request_id', '=', key.requestId)
        .executeTakeFirstOrThrow();
      if (existing.input_digest !== digest || existing.function_name !== functionName) {
        throw new DioscError(
          'request_id_collision',
          `Request ID "${key.requestId}" was already used with different input; choose a new ID for a new change.`,
        );
      }
      if (existing.status === 'committed')
        return { kind: 'replay', result: JSON.parse(existing.result ?? 'null') };
      if (existing.lease_expires_at > now) {
        throw new DioscError('in_flight', `Request "${key.requestId}" is still being processed.`, {
          retryAfterMs: existing.lease_expires_at - now,
        });
      }
      // The previous holder's lease ran out without a commit: its mutation never happened; take over.
      const taken = await db
        .updateTable('receipts')
        .set({ lease_expires_at: now + leaseMs })
        .where('actor', '=', key.actor)
        .where('request_id', '=', key.requestId)
        .where('status', '=', 'in_flight')
        .where('lease_expires_at', '=', existing.lease_expires_at)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) {
        throw new DioscError('in_flight', `Request "${key.requestId}" is still being processed.`, {
          retryAfterMs: 100,
        });
      }
      return { kind: 'fresh' };
    },

    /** Marks the claim committed with its result; call inside the mutation's transaction. */
    async complete(trx: Transaction<Database>, key: ReceiptKey, result: unknown): Promise<void> {
      await trx
        .updateTable('receipts')
        .set({ status: 'committed', result: JSON.stringify(result), completed_at: clock.now() })
        .where('actor', '=', key.actor)
        .where('request_id', '=', key.requestId)
        .execute();
    },

    /** Drops an in-flight claim whose mutation was refused or never started. */
    async release(key: ReceiptKey): Promise<void> {
      await db
        .deleteFrom('receipts')
        .where('actor', '=', key.actor)
        .where('request_id', '=', key.requestId)
        .where('status', '=', 'in_flight')
        .execute();
    },

    async find(key: ReceiptKey) {
      return db
        .selectFrom('receipts')
        .selectAll()
        .where('actor', '=', key.actor)
        .where('request_id', '=', key.requestId)
        .executeTakeFirst();
    },

    /** Deletes committed receipts older than the retention period; returns how many went. */
    async prune(retentionMs: number): Promise<number> {
      const result = await db
        .deleteFrom('receipts')
        .where('status', '=', 'committed')
        .where('created_at', '<', clock.now() - retentionMs)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type Receipts = ReturnType<typeof createReceipts>;
