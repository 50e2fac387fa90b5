import type { InterruptAnswer } from '@diosc/protocol';
import { visitorActor } from '../../audit/audit-actor.js';
import type { AuditEntry } from '../../audit/audit-recorder.js';
import type { ToolCallRecord } from '../store/tool-calls.js';
import type { VisitorSession } from '../visitors/visitor-sessions.js';

/**
 * The audit record of the kit's report of how an approval reached a client-side intent, when the
 * answer carries one: the intent, the digest of the arguments the model asked for, the changed
 * argument names of an edit (never values, never the reason). Undefined for an answer without one.
 */
export function approvalReportAudit(
  session: VisitorSession,
  call: Pick<ToolCallRecord, 'tool' | 'argsDigest' | 'args' | 'schema'>,
  answer: InterruptAnswer,
): AuditEntry | undefined {
  const report = answer.decision;
  if (!report) return undefined;
  // The names are the page's word: only those the intent's arguments or schema know are kept, so
  // free text from the page cannot ride into the audit as a "field name".
  const properties = call.schema?.properties;
  const known = new Set([
    ...Object.keys(call.args),
    ...(properties && typeof properties === 'object' ? Object.keys(properties) : []),
  ]);
  return {
    kind: 'approval_report',
    actor: visitorActor(session.visitorId),
    assistantId: session.assistantId,
    subject: call.tool,
    argsDigest: call.argsDigest,
    editedFields:
      report.decision === 'edit' ? [...new Set(report.changed ?? [])].filter((name) => known.has(name)) : [],
    outcome: report.decision,
  };
}
