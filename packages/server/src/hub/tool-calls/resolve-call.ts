import type { HubEventBody } from '@diosc/protocol';
import type { HubRunner } from '../hub.js';
import type { HubServices, HubTransaction } from '../hub-services.js';
import { type CallFields, isPending, type ToolCallRecord, type ToolCallStatus } from '../store/tool-calls.js';
import { stepResultsMessage } from './step-results.js';

/** One change in a tool call's life, with everything that stands or falls with it. */
export interface CallChange {
  call: Pick<ToolCallRecord, 'id' | 'turnId' | 'step'>;
  conversationId: string;
  from: ToolCallStatus;
  to: ToolCallStatus;
  fields?: CallFields;
  /** What the page and the visitor hear of it; appended only if the change wins. */
  events?: HubEventBody[];
  /** Other writes that belong to the change (a navigate answer's new registry). */
  also?: (tx: HubTransaction) => Promise<void>;
}

/**
 * The one door of a tool call's life once it is issued: every answer, decision, timeout,
 * cancellation and server run changes its call here. In one transaction: the compare-and-set on
 * the call's status (the first change wins; false for the others), the writes that belong to it,
 * and its events. Given a runner, the change that leaves nothing in its step waiting also moves
 * the turn on in that transaction: a step whose calls are all done is closed (its results appended,
 * the step advanced) and the waiting turn set running with its lease handed to that runner, which
 * then runs the next model step without taking a lease. A turn whose runner still holds it (running
 * the step's server calls) is left to that runner. Streams hear of the events after the commit.
 * The runner itself changes calls without a runner: it holds the turn.
 */
export async function resolveCall(
  hub: HubServices,
  runner: Pick<HubRunner, 'schedule' | 'instance' | 'leaseMs'> | undefined,
  change: CallChange,
): Promise<boolean> {
  const { call } = change;
  const outcome = await hub.transaction(async (tx): Promise<'lost' | 'won' | 'handed' | 'unblocked'> => {
    const changed = await tx.toolCalls.transition(call.id, change.from, change.to, change.fields);
    if (!changed) return 'lost';
    await change.also?.(tx);
    await tx.events.appendAll(change.conversationId, change.events ?? []);
    if (!runner) return 'won';
    // A call alone in its step is the whole step (a step's calls are issued together): nothing to read.
    const calls =
      changed.siblings === 0 ? [changed.call] : await tx.toolCalls.forStep(call.turnId, call.step);
    if (calls.some(isPending)) return 'won';
    // Ready server calls are the runner's to run; a step all done is closed here, with the resume.
    const closing = calls.every((each) => each.status === 'done');
    const step = closing ? { step: call.step } : undefined;
    if (!(await tx.turns.resume(call.turnId, runner.instance, runner.leaseMs, step))) return 'unblocked';
    if (closing)
      await tx.conversations.appendMessage(change.conversationId, stepResultsMessage(call.turnId, calls));
    return 'handed';
  });
  if (outcome === 'handed') runner?.schedule(call.turnId, { leased: true });
  else if (outcome === 'unblocked') runner?.schedule(call.turnId);
  return outcome !== 'lost';
}
