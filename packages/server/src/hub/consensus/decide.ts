import { type ConsensusDecision, DioscError, declinedMessage } from '@diosc/protocol';
import { compileToolSchema } from '@diosc/protocol/validators';
import type { Hub } from '../hub.js';
import { requireCallOfVisitor } from '../interrupts/call-of-visitor.js';
import type { VisitorSession } from '../visitors/visitor-sessions.js';
import { consensusAudit } from './consensus-audit.js';

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

  let won: boolean;
  if (decision.decision === 'approve') {
    won = await hub.toolCalls.transition(call.id, 'consensus', 'ready', {
      answer: { decision: 'approve' },
      audit: consensusAudit(session, call, 'approve'),
    });
  } else if (decision.decision === 'edit') {
    if (!decision.args) throw new DioscError('invalid_input', 'An edit needs the edited arguments.');
    const problem = compileToolSchema(call.schema ?? { type: 'object' })(decision.args);
    if (problem) throw new DioscError('invalid_input', problem);
    const changed = changedKeys(call.args, decision.args);
    won = await hub.toolCalls.transition(call.id, 'consensus', 'ready', {
      args: decision.args,
      answer: { decision: 'edit', changed },
      audit: consensusAudit(session, call, 'edit', changed),
    });
  } else {
    won = await hub.toolCalls.transition(call.id, 'consensus', 'done', {
      answer: { decision: 'reject', ...(decision.reason ? { reason: decision.reason } : {}) },
      output: { type: 'error-text', value: declinedMessage(decision.reason) },
      audit: consensusAudit(session, call, 'reject'),
    });
  }
  if (!won) throw new DioscError('consensus_not_pending');
  hub.telemetry.consensusDecided(session.assistantId, decision.decision);
  hub.tracing.waitEnded(call.id, decision.decision);
  await hub.events.append(turn.conversationId, {
    type: 'consensus.resolved',
    turnId: turn.id,
    consensusId: call.id,
    decision: decision.decision,
  });
  if (decision.decision === 'reject') {
    await hub.events.append(turn.conversationId, {
      type: 'tool.finished',
      turnId: turn.id,
      toolCallId: call.id,
      tool: call.tool,
      ok: false,
      summary: 'declined',
    });
  }
  await runner.resumeIfUnblocked(turn.id);
  return { status: 'accepted' };
}
