import { randomUUID } from 'node:crypto';
import { canonicalJson, DioscError } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import { sha256Hex } from '../account/digest.js';
import { ownerActor } from '../audit/audit-actor.js';
import type { AuditRecorder } from '../audit/audit-recorder.js';
import type { Clock } from '../clock.js';
import type { Database, ReviewReceiptsTable } from '../store/schema.js';

/** A review receipt is good for two minutes after prepare. */
export const RECEIPT_TTL_MS = 2 * 60_000;

export type ReviewReceiptRow = ReviewReceiptsTable;

/** The digest a receipt binds: SHA-256 of the canonical JSON of the exact input. */
export function argsDigest(input: unknown): string {
  return sha256Hex(canonicalJson(input));
}

/**
 * Review receipts (prepare → acknowledge → execute) — not the account core's mutation receipts
 * (`account/receipts.ts`), which record a committed write under its request ID. Each binds session, browser-access record,
 * grant generation, tool and input digest, and keeps the canonical input it was prepared with:
 * execution runs that stored copy, never a later one.
 */
export function createReviewReceipts(db: Kysely<Database>, clock: Clock, audit: AuditRecorder) {
  return {
    async create(binding: {
      accountId: string;
      sessionIdHash: string;
      connectionId: string;
      generation: number;
      tool: string;
      input: unknown;
    }): Promise<ReviewReceiptRow> {
      const now = clock.now();
      const row: ReviewReceiptRow = {
        id: randomUUID(),
        account_id: binding.accountId,
        session_id_hash: binding.sessionIdHash,
        connection_id: binding.connectionId,
        grant_generation: binding.generation,
        function_name: binding.tool,
        args_digest: argsDigest(binding.input),
        args_json: canonicalJson(binding.input),
        acknowledged_at: null,
        used_at: null,
        created_at: now,
        expires_at: now + RECEIPT_TTL_MS,
      };
      await db.insertInto('review_receipts').values(row).execute();
      return row;
    },

    /** A receipt of this session; another session's receipt is as invisible as a missing one. */
    async find(accountId: string, sessionIdHash: string, id: unknown): Promise<ReviewReceiptRow> {
      const row =
        typeof id === 'string' && id.length <= 64
          ? await db
              .selectFrom('review_receipts')
              .selectAll()
              .where('id', '=', id)
              .where('account_id', '=', accountId)
              .executeTakeFirst()
          : undefined;
      if (!row) throw new DioscError('not_found', 'There is no such review receipt.');
      if (row.session_id_hash !== sessionIdHash) {
        throw new DioscError('receipt_mismatch', 'This review receipt belongs to another session.');
      }
      return row;
    },

    /** Refuses a receipt that is used or expired, in that order. */
    assertUsable(row: ReviewReceiptRow): void {
      if (row.used_at !== null) throw new DioscError('receipt_used');
      if (clock.now() >= row.expires_at) throw new DioscError('receipt_expired');
    },

    /**
     * The owner's review decision, with its audit record in the same transaction. Only the first
     * acknowledgement is a decision: a repeat changes nothing and records nothing.
     */
    async acknowledge(row: ReviewReceiptRow): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('review_receipts')
          .set({ acknowledged_at: clock.now() })
          .where('id', '=', row.id)
          .where('acknowledged_at', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return;
        await audit.record(trx, {
          kind: 'browser_access_review',
          actor: ownerActor(row.account_id),
          accountId: row.account_id,
          subject: row.function_name,
          argsDigest: row.args_digest,
          outcome: 'acknowledged',
        });
      });
    },

    /**
     * Uses the receipt up, atomically: of two concurrent executions only one gets `true`. (A review
     * receipt is consumed once; a mutation receipt is *claimed* by its request ID — other verbs on
     * purpose, see docs/architecture.md "Names".)
     */
    async consume(row: ReviewReceiptRow): Promise<boolean> {
      const now = clock.now();
      const result = await db
        .updateTable('review_receipts')
        .set({ used_at: now })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .where('acknowledged_at', 'is not', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Makes a consumed receipt usable again when the core refused before doing anything (rate limit, busy). */
    async restore(row: ReviewReceiptRow): Promise<void> {
      await db.updateTable('review_receipts').set({ used_at: null }).where('id', '=', row.id).execute();
    },
  };
}

export type ReviewReceipts = ReturnType<typeof createReviewReceipts>;
