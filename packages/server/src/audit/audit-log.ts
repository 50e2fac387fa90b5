import type { AuditActorKind, AuditKind, AuditOutcome, AuditRecordView } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { AuditRecordsTable, Database } from '../store/schema.js';

const DAY_MS = 24 * 60 * 60_000;

export interface AuditFilter {
  /**
   * An assistant's records; with `accountId` too, the account-level records of its owner as well
   * (the grants and reviews that are no one assistant's).
   */
  assistantId?: string;
  accountId?: string;
  kind?: AuditKind;
  outcome?: AuditOutcome;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  /** Only records older than this one (by time, then id): the cursor of the next page. */
  before?: { at: number; id: string };
}

export function toAuditView(row: AuditRecordsTable): AuditRecordView {
  return {
    id: row.id,
    at: new Date(Number(row.at)).toISOString(),
    kind: row.kind as AuditKind,
    assistantId: row.assistant_id,
    actor: { kind: row.actor_kind as AuditActorKind, id: row.actor_id },
    subject: row.subject,
    argsDigest: row.args_digest,
    editedFields: JSON.parse(row.edited_fields) as string[],
    outcome: row.outcome as AuditOutcome,
    instance: row.instance,
  };
}

/** Reading and pruning the audit (`audit_records`); writing is the recorder's (`audit-recorder.ts`). */
export function createAuditLog(db: Kysely<Database>) {
  function select(filter: AuditFilter) {
    let query = db.selectFrom('audit_records').selectAll();
    const { assistantId, accountId } = filter;
    if (assistantId !== undefined && accountId !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('assistant_id', '=', assistantId),
          eb.and([eb('assistant_id', 'is', null), eb('account_id', '=', accountId)]),
        ]),
      );
    } else if (assistantId !== undefined) {
      query = query.where('assistant_id', '=', assistantId);
    } else if (accountId !== undefined) {
      query = query.where('account_id', '=', accountId);
    }
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    if (filter.outcome) query = query.where('outcome', '=', filter.outcome);
    if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
    if (filter.until !== undefined) query = query.where('at', '<', filter.until);
    if (filter.before) {
      const { at, id } = filter.before;
      query = query.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
    }
    return query;
  }

  return {
    /** Where a record sits in the order, for `before`; undefined when there is no such record. */
    async positionOf(id: string): Promise<{ at: number; id: string } | undefined> {
      const row = await db
        .selectFrom('audit_records')
        .select(['at', 'id'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? { at: Number(row.at), id: row.id } : undefined;
    },

    /** Newest first, at most `limit`; `more` says whether the filter matched more. */
    async list(filter: AuditFilter, limit: number): Promise<{ records: AuditRecordView[]; more: boolean }> {
      const rows = await select(filter)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      return { records: rows.slice(0, limit).map(toAuditView), more: rows.length > limit };
    },

    /**
     * Every matching record, oldest first, read a page at a time so an export of years of records
     * never holds them all in memory.
     */
    async *all(filter: AuditFilter, pageSize = 500): AsyncGenerator<AuditRecordView> {
      let after: { at: number; id: string } | undefined;
      for (;;) {
        let query = select(filter);
        if (after) {
          const { at, id } = after;
          query = query.where((eb) =>
            eb.or([eb('at', '>', at), eb.and([eb('at', '=', at), eb('id', '>', id)])]),
          );
        }
        const rows = await query.orderBy('at').orderBy('id').limit(pageSize).execute();
        for (const row of rows) yield toAuditView(row);
        if (rows.length < pageSize) return;
        const last = rows.at(-1)!;
        after = { at: Number(last.at), id: last.id };
      }
    },

    /** Deletes the records older than `retentionDays` before `now`; answers how many went. */
    async prune(retentionDays: number, now: number): Promise<number> {
      const result = await db
        .deleteFrom('audit_records')
        .where('at', '<', now - retentionDays * DAY_MS)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
