import { type ConsensusDecision, DioscError, declinedMessage } from '@diosc/protocol';
import { compileToolSchema } from '@diosc/protocol/validators';
import type { Hub } from '../hub.js';
import type { VisitorSession } from '../visitors/visitor-sessions.js';
import { requireCallOfVisitor } from './call-of-visitor.js';
import { consensusAudit } from './consensus-audit.js';
import { resolveCall } from './resolve-call.js';
import { toolFinished } from './tool-finished.js';

function changedKeys(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).sort();
}

/**
 * The visitor's decision on a server tool's approval request, bound to the request and the digest
 * of its exact arguments. Approve runs the model's arguments; Edit runs the visitor's, checked
 * against the tool's schema first; Reject never runs the tool.
 */
export async function decideConsensus(
  { services: hub, runner }: Hub,
  session: VisitorSession,
  { interruptId: id, decision }: { interruptId: string; decision: ConsensusDecision },
): Promise<{ status: 'accepted' }> {
  const { call, turn } = await requireCallOfVisitor(hub, session, id, ['server']);
  if (call.status !== 'consensus') throw new DioscError('consensus_not_pending');
  if (decision.argsDigest !== call.argsDigest) throw new DioscError('decision_mismatch');
  if (decision.decision !== 'edit' && decision.args !== undefined)
    throw new DioscError('invalid_input', 'Only an edit carries arguments.');
  if (decision.decision !== 'reject' && decision.reason !== undefined)
    throw new DioscError('invalid_input', 'Only a rejection carries a reason.');

  const change = {
    call,
    conversationId: turn.conversationId,
    from: 'consensus' as const,
    events: [
      {
        type: 'consensus.resolved' as const,
        turnId: turn.id,
        consensusId: call.id,
        decision: decision.decision,
      },
    ],
  };
  let won: boolean;
  if (decision.decision === 'approve') {
    won = await resolveCall(hub, runner, {
      ...change,
      to: 'ready',
      fields: { answer: { decision: 'approve' }, audit: consensusAudit(session, call, 'approve') },
    });
  } else if (decision.decision === 'edit') {
    if (!decision.args) throw new DioscError('invalid_input', 'An edit needs the edited arguments.');
    const problem = compileToolSchema(call.schema ?? { type: 'object' })(decision.args);
    if (problem) throw new DioscError('invalid_input', problem);
    const changed = changedKeys(call.args, decision.args);
    won = await resolveCall(hub, runner, {
      ...change,
      to: 'ready',
      fields: {
        args: decision.args,
        answer: { decision: 'edit', changed },
        audit: consensusAudit(session, call, 'edit', changed),
      },
    });
  } else {
    won = await resolveCall(hub, runner, {
      ...change,
      to: 'done',
      fields: {
        answer: { decision: 'reject', ...(decision.reason ? { reason: decision.reason } : {}) },
        output: { type: 'error-text', value: declinedMessage(decision.reason) },
        audit: consensusAudit(session, call, 'reject'),
      },
      events: [...change.events, toolFinished(call, { ok: false, summary: 'declined' })],
    });
  }
  if (!won) throw new DioscError('consensus_not_pending');
  hub.telemetry.consensusDecided(session.assistantId, decision.decision);
  hub.tracing.waitEnded(call.id, decision.decision);
  return { status: 'accepted' };
}
