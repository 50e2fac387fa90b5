import type { ConsensusOutcome } from '@diosc/protocol';
import { visitorActor } from '../../audit/audit-actor.js';
import type { AuditEntry } from '../../audit/audit-recorder.js';
import type { ToolCallRecord } from '../store/tool-calls.js';
import type { VisitorSession } from '../visitors/visitor-sessions.js';

/**
 * The audit record of a visitor's decision on an approval request: the tool and the digest of the
 * arguments the request showed; for an edit, the names of the arguments changed (never values).
 */
export function consensusAudit(
  session: VisitorSession,
  call: Pick<ToolCallRecord, 'tool' | 'argsDigest'>,
  outcome: ConsensusOutcome,
  editedFields: readonly string[] = [],
): AuditEntry {
  return {
    kind: 'consensus_decision',
    actor: visitorActor(session.visitorId),
    assistantId: session.assistantId,
    subject: call.tool,
    argsDigest: call.argsDigest,
    editedFields,
    outcome,
  };
}
