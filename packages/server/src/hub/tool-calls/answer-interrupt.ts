import { answerBytesProblem, answerOutcome, DioscError, type InterruptAnswer } from '@diosc/protocol';
import type { Hub } from '../hub.js';
import type { HubTransaction } from '../hub-services.js';
import type { ToolOutput } from '../store/tool-calls.js';
import type { VisitorSession } from '../visitors/visitor-sessions.js';
import { approvalReportAudit } from './approval-report-audit.js';
import { requireCallOfVisitor } from './call-of-visitor.js';
import { resolveCall } from './resolve-call.js';
import { toolFinished } from './tool-finished.js';
import { argsDigest } from './tool-output.js';

/** What the model reads for a page's answer: the result as JSON, or the page's error as text. */
function outputOf(answer: InterruptAnswer): ToolOutput {
  if ('error' in answer) return { type: 'error-text', value: answer.error };
  const result = answer.result;
  if (answer.file) {
    const base = result && typeof result === 'object' && !Array.isArray(result) ? result : { result };
    return { type: 'json', value: { ...base, file: answer.file } };
  }
  return { type: 'json', value: result ?? null };
}

/**
 * Takes the page's answer to one interrupt — the result only, never history. The first answer
 * wins (compare-and-set on the call's status); the same body again is a no-op `duplicate`; any
 * other body is `result_conflict`. A navigate answer's registry replaces the turn's before the
 * next step runs. A delivered file must have been uploaded for this very interrupt, and the
 * model and the chip get the hub's stored descriptor, never the page's copy of it; an answer that
 * would carry bytes (`data:` URLs) or a result `file` the hub did not issue is refused
 * (`answerBytesProblem`), whatever the kit did.
 */
export async function answerInterrupt(
  { services: hub, runner }: Hub,
  session: VisitorSession,
  { interruptId, answer: received }: { interruptId: string; answer: InterruptAnswer },
): Promise<{ status: 'accepted' | 'duplicate' }> {
  const { call, turn } = await requireCallOfVisitor(hub, session, interruptId, ['browser', 'intent']);
  const digest = argsDigest(received);
  if (call.status !== 'interrupt') {
    if (call.answerDigest === digest) return { status: 'duplicate' };
    if (call.answerDigest) throw new DioscError('result_conflict');
    throw new DioscError('interrupt_not_pending');
  }
  const bytes = answerBytesProblem(received);
  if (bytes) throw new DioscError('invalid_input', bytes);
  let answer = received;
  if ('result' in received && received.file) {
    const file = await hub.files.descriptorFor(received.file.fileId, turn.conversationId, call.id);
    if (!file)
      throw new DioscError(
        'invalid_input',
        'The file named in the answer was not uploaded for this interrupt.',
      );
    // The stored descriptor replaces the page's copies, the one inside the result included.
    const result = received.result;
    answer = {
      ...received,
      ...(result && typeof result === 'object' && !Array.isArray(result) && 'file' in result
        ? { result: { ...result, file } }
        : {}),
      file,
    };
  }
  const file = 'result' in answer ? answer.file : undefined;
  const won = await resolveCall(hub, runner, {
    call,
    conversationId: turn.conversationId,
    from: 'interrupt',
    to: 'done',
    fields: {
      output: outputOf(answer),
      answer,
      answerDigest: digest,
      audit: approvalReportAudit(session, call, answer),
    },
    events: [
      { type: 'interrupt.resolved', turnId: turn.id, interruptId: call.id, outcome: 'answered' },
      ...(file ? [{ type: 'file.ready' as const, turnId: turn.id, file }] : []),
      toolFinished(call, answerOutcome(answer)),
    ],
    // A navigate answer's registry replaces the turn's before the next step runs.
    ...('result' in answer && call.tool === 'navigate' && answer.registry
      ? { also: (tx: HubTransaction) => tx.turns.setRegistry(turn.id, answer.registry!) }
      : {}),
  });
  if (!won) {
    const now = await hub.toolCalls.get(call.id);
    if (now?.answerDigest === digest) return { status: 'duplicate' };
    if (now?.answerDigest) throw new DioscError('result_conflict');
    throw new DioscError('interrupt_not_pending');
  }
  hub.tracing.waitEnded(call.id, 'answered');
  hub.telemetry.browserRoundTrip(session.assistantId, (hub.clock.now() - call.createdAt) / 1000);
  return { status: 'accepted' };
}
