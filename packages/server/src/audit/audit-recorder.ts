import { randomUUID } from 'node:crypto';
import type { AuditKind, AuditOutcome } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../store/schema.js';
import type { AuditActor } from './audit-actor.js';

/** What a source of decisions tells the audit; the recorder adds the id, the time and the instance. */
export interface AuditEntry {
  kind: AuditKind;
  actor: AuditActor;
  /** The tool decided on, or the connection whose grant changed. */
  subject: string;
  outcome: AuditOutcome;
  assistantId?: string;
  /** Account-level records (grants, reviews) name their account; an assistant's are found by it. */
  accountId?: string;
  argsDigest?: string;
  /** Names only: an edit's values may be anything the visitor typed. */
  editedFields?: readonly string[];
}

/**
 * The one seam every source of decisions writes its audit record through. `db` is the source's own
 * transaction wherever the decision is one statement of it, so a decision never commits without its
 * record, nor a record without its decision.
 */
export interface AuditRecorder {
  record(db: Kysely<Database>, entry: AuditEntry): Promise<void>;
}

export function createAuditRecorder(clock: Clock, instance: string): AuditRecorder {
  return {
    async record(db, entry) {
      await db
        .insertInto('audit_records')
        .values({
          id: `aud_${randomUUID()}`,
          at: clock.now(),
          instance,
          account_id: entry.accountId ?? null,
          assistant_id: entry.assistantId ?? null,
          actor_kind: entry.actor.kind,
          actor_id: entry.actor.id,
          kind: entry.kind,
          subject: entry.subject,
          args_digest: entry.argsDigest ?? null,
          edited_fields: JSON.stringify([...(entry.editedFields ?? [])].sort()),
          outcome: entry.outcome,
        })
        .execute();
    },
  };
}
