import {
  answerBytesProblem,
  type ConsensusDecision,
  type InterruptAnswer,
  type SendMessageRequest,
} from '@diosc/protocol';
import { compileToolSchema } from '@diosc/protocol/validators';
import { json, refusal } from './fake-reply.js';
import {
  emitEvent,
  type FakeConversation,
  type FakeHubContext,
  type FakeTurnState,
  newId,
} from './fake-state.js';
import { createFakeTurn } from './fake-turn.js';

/** `POST …/messages`: saves the visitor's message and runs the script as the turn, in the background. */
export function startTurn(
  context: FakeHubContext,
  conversation: FakeConversation,
  body: SendMessageRequest,
): Response {
  const current = conversation.turn?.view.status;
  if (current === 'running' || current === 'waiting') return refusal('turn_in_progress');
  const turnId = newId('t');
  const messageId = newId('m');
  const files = (body.attachments ?? []).flatMap((id) => {
    const stored = context.hub.files.get(id);
    return stored ? [stored.descriptor] : [];
  });
  conversation.messages.push({
    id: messageId,
    role: 'user',
    text: body.text,
    files,
    tools: [],
    createdAt: new Date().toISOString(),
  });
  const state: FakeTurnState = {
    view: { id: turnId, status: 'running' },
    request: body,
    tools: [],
    files: [],
    ended: new AbortController(),
  };
  conversation.turn = state;
  emitEvent(conversation, { type: 'turn.started', turnId, messageId });
  const run = (async () => {
    try {
      await context.hub.script(createFakeTurn(conversation, state));
      state.view = { id: turnId, status: 'done' };
      emitEvent(conversation, { type: 'turn.done', turnId });
    } catch (error) {
      if (state.ended.signal.aborted) {
        state.view = { id: turnId, status: 'cancelled' };
        emitEvent(conversation, { type: 'turn.cancelled', turnId });
      } else {
        const failure = {
          code: 'model_failed',
          message: error instanceof Error ? error.message : String(error),
        };
        state.view = { id: turnId, status: 'failed', error: failure };
        emitEvent(conversation, { type: 'turn.failed', turnId, error: failure });
      }
    } finally {
      for (const [id, pending] of conversation.interrupts)
        if (pending.interrupt.turnId === turnId) conversation.interrupts.delete(id);
      for (const [id, pending] of conversation.consensus)
        if (pending.request.turnId === turnId) conversation.consensus.delete(id);
    }
  })();
  context.turns.add(run);
  void run.finally(() => context.turns.delete(run));
  return json({ turnId, messageId }, 202);
}

const find = <T extends { visitorId: string }>(
  context: FakeHubContext,
  visitorId: string,
  has: (c: FakeConversation) => T | undefined,
) => {
  for (const conversation of context.hub.conversations.values()) {
    if (conversation.visitorId !== visitorId) continue;
    const found = has(conversation);
    if (found) return found;
  }
  return undefined;
};

/** `POST /interrupts/:id/answer`: result only; a repeat is `duplicate`, another body `result_conflict`. */
export function answerInterrupt(
  context: FakeHubContext,
  visitorId: string,
  id: string,
  answer: InterruptAnswer,
): Response {
  const body = JSON.stringify(answer);
  const hit = find(context, visitorId, (conversation) =>
    conversation.interrupts.has(id) || conversation.answered.has(id)
      ? { visitorId, conversation }
      : undefined,
  );
  if (!hit) return refusal('interrupt_not_pending');
  const { conversation } = hit;
  const previous = conversation.answered.get(id);
  if (previous !== undefined)
    return previous === body ? json({ status: 'duplicate' }) : refusal('result_conflict');
  const bytes = answerBytesProblem(answer);
  if (bytes) return refusal('invalid_input', bytes);
  const pending = conversation.interrupts.get(id)!;
  conversation.interrupts.delete(id);
  conversation.answered.set(id, body);
  pending.resolve(answer);
  return json({ status: 'accepted' });
}

/** `POST /consensus/:id/decision`: bound to the request's `argsDigest`. */
export function decideConsensus(
  context: FakeHubContext,
  visitorId: string,
  id: string,
  decision: ConsensusDecision,
): Response {
  const hit = find(context, visitorId, (conversation) =>
    conversation.consensus.has(id) ? { visitorId, conversation } : undefined,
  );
  if (!hit) return refusal('consensus_not_pending');
  const pending = hit.conversation.consensus.get(id)!;
  if (decision.argsDigest !== pending.request.argsDigest) return refusal('decision_mismatch');
  if (decision.decision !== 'edit' && decision.args !== undefined)
    return refusal('invalid_input', 'Only an edit carries arguments.');
  if (decision.decision !== 'reject' && decision.reason !== undefined)
    return refusal('invalid_input', 'Only a rejection carries a reason.');
  if (decision.decision === 'edit') {
    if (!decision.args) return refusal('invalid_input', 'An edit needs the edited arguments.');
    const problem = compileToolSchema(pending.request.schema ?? { type: 'object' })(decision.args);
    if (problem) return refusal('invalid_input', problem);
  }
  hit.conversation.consensus.delete(id);
  pending.resolve(decision);
  return json({ status: 'accepted' });
}
