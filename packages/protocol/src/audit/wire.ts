/**
 * The audit of decisions (`GET /api/owner/assistants/:id/audit`, `diosc audit export`): one durable
 * record per Consensus decision, kit approval report, browser-access review and connection grant
 * change. A record names who, what, when, the outcome and the instance — never a secret, never an
 * argument's value (only its digest and the names of edited fields).
 */

export const AUDIT_KINDS = [
  'consensus_decision',
  'approval_report',
  'browser_access_review',
  'grant_change',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** `owner`: the signed-in account; `visitor`: an anonymous visitor; `identified_user`: a host-signed identity. */
export const AUDIT_ACTOR_KINDS = ['owner', 'visitor', 'identified_user'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/**
 * What came of the decision: a Consensus or kit outcome (`approve`, `edit`, `reject`), a review
 * `acknowledged`, or a grant `created`, `changed`, `rotated` (its token replaced) or `revoked`.
 */
export const AUDIT_OUTCOMES = [
  'approve',
  'edit',
  'reject',
  'acknowledged',
  'created',
  'changed',
  'rotated',
  'revoked',
] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export interface AuditRecordView {
  id: string;
  /** ISO time of the decision (the store's clock). */
  at: string;
  kind: AuditKind;
  /** Null for account-level records (connection grants, browser-access reviews). */
  assistantId: string | null;
  actor: { kind: AuditActorKind; id: string };
  /** The tool (Consensus, kit intent, browser write) or the connection the grant belongs to. */
  subject: string;
  /** SHA-256 (hex) of the exact arguments or grant decided on; null when there are none. */
  argsDigest: string | null;
  /** Names of the fields an edit changed (never their values). */
  editedFields: string[];
  outcome: AuditOutcome;
  /** The server process that wrote it (`DIOSC_INSTANCE_ID`, else host name and process id). */
  instance: string;
}

/**
 * `GET /api/owner/assistants/:id/audit?kind=&outcome=&since=&until=&before=&limit=`, newest first:
 * the assistant's records and the account-level ones of its owner. For the next page, pass the
 * last record's `id` as `before`.
 */
export interface AuditPage {
  records: AuditRecordView[];
  /** Whether more records match than `limit` let through. */
  more: boolean;
}

/** Cap on one page of audit records. */
export const AUDIT_PAGE_MAX = 200;
