import type { ApprovalSeverity } from './page.js';

/**
 * Server-side Consensus: a server tool that asks for approval waits for the visitor's decision. The
 * decision is bound to the request's id, its turn and the digest of the exact arguments.
 */
export interface ConsensusRequest {
  id: string;
  turnId: string;
  tool: string;
  severity: ApprovalSeverity;
  /** Computed by the hub from the tool and its arguments, never by the model. */
  summary: string;
  args: Record<string, unknown>;
  /** SHA-256 (hex) of the canonical JSON of `args`; a decision must echo it. */
  argsDigest: string;
  /** The tool's input schema, for the dialog's Edit form. */
  schema: Record<string, unknown>;
}

export type ConsensusOutcome = 'approve' | 'edit' | 'reject';

export interface ConsensusDecision {
  decision: ConsensusOutcome;
  argsDigest: string;
  /** Edit only: the visitor's values, validated against the tool's schema before anything runs. */
  args?: Record<string, unknown>;
  /** Reject only: appended to "Action declined by user". */
  reason?: string;
}

/** The result a rejected action reports; the reason, when given, follows after ": ". */
export const DECLINED_BY_USER = 'Action declined by user';

export function declinedMessage(reason?: string): string {
  const trimmed = reason?.trim();
  return trimmed ? `${DECLINED_BY_USER}: ${trimmed}` : DECLINED_BY_USER;
}

/** How a decision reached a client-side intent, reported with its result (never a reason to run). */
export interface IntentDecisionReport {
  decision: ConsensusOutcome;
  /** Edit only: the names of the arguments the user changed. */
  changed?: string[];
  reason?: string;
}
