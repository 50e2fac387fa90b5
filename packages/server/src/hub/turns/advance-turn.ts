import { DioscError } from '@diosc/protocol';
import type { HubServices } from '../hub-services.js';
import { isPending } from '../store/tool-calls.js';
import type { TurnRecord } from '../store/turns.js';
import { abandonInterrupted, runServerCall } from '../tool-calls/run-server-call.js';
import { stepResultsMessage } from '../tool-calls/step-results.js';
import { finishTurn } from './end-turn.js';
import { runStep } from './run-step.js';

/**
 * Takes a turn from where the store says it is to its next resting state: done, or waiting on the
 * page or the visitor. Each pass reads the turn and its step's calls and does the one thing that
 * state calls for — run the step's ready server calls, wait, close the step with its results, or
 * run the next model step. The caller holds the turn's lease. Returns where the turn came to rest:
 * `waiting` or `ended` (its lease given up with that change in the store), or undefined when the
 * run stopped for another reason (the turn is not this run's to go on with, or it was aborted).
 */
export async function advanceTurn(
  hub: HubServices,
  turnId: string,
  lease: { signal: AbortSignal; leaseOwner: string; leaseMs: number },
): Promise<'waiting' | 'ended' | undefined> {
  const { signal } = lease;
  const run = await hub.turns.getForRun(turnId);
  if (!run) return undefined;
  // The assistant is read once per run, with the turn: a change applies from the turn's next run.
  const { assistant, lastSeq } = run;
  // Failed, not left running: a turn nobody can run would be picked up again and again.
  if (!assistant) throw new DioscError('not_found', 'The assistant of this conversation no longer exists.');
  const conversationId = run.turn.conversationId;
  const serverRun = { assistant, visitorId: run.visitorId, conversationId, signal };
  // The first pass knows from the run's read whether its step has calls (a step closed by the
  // door that handed the turn over has none yet); later passes read them.
  let stepHasCalls: boolean = run.stepHasCalls;
  for (
    let turn: TurnRecord | undefined = run.turn;
    ;
    turn = await hub.turns.get(turnId), stepHasCalls = true
  ) {
    if (!turn || (turn.status !== 'running' && turn.status !== 'waiting') || signal.aborted) return undefined;

    // Server calls of the step run while the page and the visitor are still deciding theirs.
    const read = stepHasCalls ? await hub.toolCalls.forStep(turn.id, turn.step) : [];
    let changed = false;
    for (const call of read) {
      if (call.status === 'ready') await runServerCall(hub, serverRun, call);
      if (call.status === 'running') await abandonInterrupted(hub, call, turn.conversationId);
      changed ||= call.status === 'ready' || call.status === 'running';
    }
    // Read again only when this run changed a call. Otherwise the read above stands: an answer
    // that lands after it is caught by the look after the transition to waiting below, or, on a
    // waiting turn, by the loop's next read.
    const calls = changed ? await hub.toolCalls.forStep(turn.id, turn.step) : read;
    if (calls.some(isPending)) {
      // Waiting gives the lease up; an answer that lands after this finds the turn waiting and
      // hands it on. One that landed before is caught by the look below.
      await hub.turns.transition(turn.id, ['running', 'waiting'], 'waiting');
      if (await hub.toolCalls.stepWaits(turn.id, turn.step)) return 'waiting';
    }
    if (turn.status === 'waiting' || calls.some(isPending)) {
      // Waiting with nothing left to wait on (answered meanwhile): go on, holding the lease again.
      if (!(await hub.turns.resume(turn.id, lease.leaseOwner, lease.leaseMs))) return undefined;
      continue;
    }
    if (calls.length > 0) {
      if (calls.some((call) => call.status !== 'done')) continue;
      // The results and the step's end commit together, so a restart never appends them twice;
      // advanced first, so a call's door closing the same step at the same moment wins alone.
      const { id, step } = turn;
      await hub.transaction(async (tx) => {
        if (await tx.turns.advanceStep(id, step))
          await tx.conversations.appendMessage(conversationId, stepResultsMessage(id, calls));
      });
      continue;
    }
    const ending = { id: turn.id, conversationId, assistantId: assistant.id, lastSeq };
    if (turn.step >= assistant.config.limits.maxStepsPerTurn) {
      await finishTurn(hub, ending, `I stopped after ${turn.step} steps without finishing.`);
      return 'ended';
    }
    const issued = await runStep(hub, {
      assistant,
      turnId: turn.id,
      conversationId: conversationId,
      step: turn.step,
      registry: turn.registry,
      lastSeq,
      signal,
    });
    if (issued.length === 0) {
      await finishTurn(hub, ending);
      return 'ended';
    }
    // The step's transaction set the turn waiting and gave the lease up: it is no longer ours.
    // With server calls to run it kept the lease, and the next pass runs them.
    if (issued.some(isPending) && !issued.some((call) => call.status === 'ready')) return 'waiting';
  }
}
