import type { HubEventBody } from '@diosc/protocol';
import type { HubRunner } from '../hub.js';
import type { HubServices, HubTransaction } from '../hub-services.js';
import type { CallFields, ToolCallRecord, ToolCallStatus } from './tool-calls.js';

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
 * its events, and — given a scheduler — the turn set running again when nothing in its step waits
 * any more. Streams hear of the events after the commit, and the unblocked turn is scheduled.
 * The runner changes calls without a scheduler: it is the one running the turn.
 */
export async function resolveCall(
  hub: HubServices,
  scheduler: Pick<HubRunner, 'schedule'> | undefined,
  change: CallChange,
): Promise<boolean> {
  const { call } = change;
  const outcome = await hub.transaction(async (tx) => {
    if (!(await tx.toolCalls.transition(call.id, change.from, change.to, change.fields))) return 'lost';
    await change.also?.(tx);
    for (const body of change.events ?? []) await tx.events.append(change.conversationId, body);
    if (!scheduler || (await tx.toolCalls.stepWaits(call.turnId, call.step))) return 'won';
    await tx.turns.transition(call.turnId, ['waiting'], 'running');
    return 'unblocked';
  });
  if (outcome === 'unblocked') scheduler?.schedule(call.turnId);
  return outcome !== 'lost';
}
