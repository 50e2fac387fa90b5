import { DioscError } from '@diosc/protocol';
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../store/schema.js';

export interface ReceiptKey {
  actor: string;
  requestId: string;
}

/** `lease` identifies this holder's claim: a holder that lost its claim to a take-over cannot complete it. */
export type Claim = { kind: 'fresh'; lease: number } | { kind: 'replay'; result: unknown };

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
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1)
        return { kind: 'fresh', lease: now + leaseMs };

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
      return { kind: 'fresh', lease: now + leaseMs };
    },

    /**
     * Marks the claim committed with its result; call inside the mutation's transaction. False when
     * this holder no longer owns the claim (its lease ran out and a retry took it over): the caller
     * must roll back so the change happens once.
     */
    async complete(
      trx: Transaction<Database>,
      key: ReceiptKey,
      lease: number,
      result: unknown,
    ): Promise<boolean> {
      const updated = await trx
        .updateTable('receipts')
        .set({ status: 'committed', result: JSON.stringify(result), completed_at: clock.now() })
        .where('actor', '=', key.actor)
        .where('request_id', '=', key.requestId)
        .where('status', '=', 'in_flight')
        .where('lease_expires_at', '=', lease)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    /** Drops this holder's in-flight claim when its mutation was refused or never started. */
    async release(key: ReceiptKey, lease: number): Promise<void> {
      await db
        .deleteFrom('receipts')
        .where('actor', '=', key.actor)
        .where('request_id', '=', key.requestId)
        .where('status', '=', 'in_flight')
        .where('lease_expires_at', '=', lease)
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

    /**
     * Deletes committed receipts older than the retention period, and in-flight claims whose holder
     * died (lease ended) that long ago; returns how many went.
     */
    async prune(retentionMs: number): Promise<number> {
      const cutoff = clock.now() - retentionMs;
      const result = await db
        .deleteFrom('receipts')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'committed'), eb('created_at', '<', cutoff)]),
            eb.and([eb('status', '=', 'in_flight'), eb('lease_expires_at', '<', cutoff)]),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type Receipts = ReturnType<typeof createReceipts>;
