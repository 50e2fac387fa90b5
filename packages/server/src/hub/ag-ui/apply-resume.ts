import {
  type AgUiRunBody,
  type ConsensusDecision,
  DioscError,
  INTERRUPT_ANSWER_MAX_BYTES,
  type InterruptAnswer,
} from '@diosc/protocol';
import { validateHubBody } from '@diosc/protocol/validators';
import type { Hub } from '../hub.js';
import { answerInterrupt } from '../tool-calls/answer-interrupt.js';
import { requireCallOfVisitor } from '../tool-calls/call-of-visitor.js';
import { decideConsensus } from '../tool-calls/decide-consensus.js';
import type { VisitorSession } from '../visitors/visitor-sessions.js';

type ResumeEntry = NonNullable<AgUiRunBody['resume']>[number];

/** What became of one resume entry: taken now, or the same answer taken before. */
export interface ResumeOutcome {
  interruptId: string;
  status: 'accepted' | 'duplicate';
}

export const CANCELLED_TOOL_MESSAGE = 'The application cancelled this tool call.';

/**
 * Answers the interrupts a run's `resume` names, through the hub's own doors: a client tool's
 * result goes to `answerInterrupt` (the first answer wins, the same again is `duplicate`, another
 * is `result_conflict`), an approval to `decideConsensus` (bound to the argument digest). Every
 * payload is checked before any is taken; an id of another visitor or another thread reads as
 * unknown. A cancelled entry is an error result for a client tool and a rejection for an approval.
 */
export async function applyResume(
  hub: Hub,
  session: VisitorSession,
  conversationId: string,
  entries: readonly ResumeEntry[],
): Promise<ResumeOutcome[]> {
  const ids = new Set(entries.map((entry) => entry.interruptId));
  if (ids.size !== entries.length)
    throw new DioscError('invalid_input', 'Each interrupt is answered once per run.');
  const planned: (() => Promise<ResumeOutcome>)[] = [];
  for (const entry of entries) planned.push(await plan(hub, session, conversationId, entry));
  const outcomes: ResumeOutcome[] = [];
  for (const take of planned) outcomes.push(await take());
  return outcomes;
}

async function plan(
  hub: Hub,
  session: VisitorSession,
  conversationId: string,
  entry: ResumeEntry,
): Promise<() => Promise<ResumeOutcome>> {
  const { call, turn } = await requireCallOfVisitor(hub.services, session, entry.interruptId, [
    'browser',
    'intent',
    'server',
  ]);
  if (turn.conversationId !== conversationId) throw new DioscError('not_found', 'There is no such request.');
  const interruptId = call.id;
  if (call.kind === 'server') {
    const decision: ConsensusDecision =
      entry.status === 'cancelled'
        ? { decision: 'reject', argsDigest: call.argsDigest }
        : validateHubBody('consensusDecision', entry.payload);
    return async () => {
      await decideConsensus(hub, session, { interruptId, decision });
      return { interruptId, status: 'accepted' };
    };
  }
  const answer: InterruptAnswer =
    entry.status === 'cancelled' ? { error: CANCELLED_TOOL_MESSAGE } : clientToolAnswer(entry.payload);
  return async () => {
    const { status } = await answerInterrupt(hub, session, { interruptId, answer });
    return { interruptId, status };
  };
}

/** A client tool's answer is its outcome only — no page state, no files, as the kit's answers are. */
function clientToolAnswer(payload: unknown): InterruptAnswer {
  const fields =
    payload && typeof payload === 'object' && !Array.isArray(payload) ? Object.keys(payload) : undefined;
  if (!fields || fields.some((field) => field !== 'result' && field !== 'error'))
    throw new DioscError(
      'invalid_input',
      'A client tool is resumed with { result } or { error }, nothing else.',
    );
  if (Buffer.byteLength(JSON.stringify(payload)) > INTERRUPT_ANSWER_MAX_BYTES)
    throw new DioscError(
      'invalid_input',
      `A client tool's answer is at most ${INTERRUPT_ANSWER_MAX_BYTES} bytes as JSON.`,
    );
  return validateHubBody('interruptAnswer', payload);
}
