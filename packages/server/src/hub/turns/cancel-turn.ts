import { DioscError, type TurnView } from '@diosc/protocol';
import type { Hub } from '../hub.js';
import { turnView } from '../store/turns.js';
import { resolveCall } from '../tool-calls/resolve-call.js';
import { errorOutput } from '../tool-calls/tool-output.js';
import type { VisitorSession } from '../visitors/visitor-sessions.js';

/**
 * Cancels a running or waiting turn: its pending interrupts and approval requests are closed (a
 * late answer is `interrupt_not_pending`), a model call in progress (here or on another instance)
 * is aborted, and the conversation takes messages again.
 */
export async function cancelTurn(
  hub: Hub,
  session: VisitorSession,
  { turnId }: { turnId: string },
): Promise<TurnView> {
  const { services } = hub;
  const turn = /^trn_[0-9a-f-]{36}$/.test(turnId) ? await services.turns.get(turnId) : undefined;
  if (!turn) throw new DioscError('not_found', 'There is no such turn.');
  await services.conversations.requireOwned(turn.conversationId, session).catch(() => {
    throw new DioscError('not_found', 'There is no such turn.');
  });
  if (!(await stopTurn(hub, turn, 'The visitor cancelled the turn.'))) {
    throw new DioscError('turn_not_active');
  }
  return turnView({ ...turn, status: 'cancelled' });
}

/**
 * Moves a running or waiting turn to `cancelled` and closes what it waits on; false when it had
 * already ended. Used by the visitor's cancel and by the owner deleting the conversation.
 */
export async function stopTurn(
  { services: hub, runner }: Hub,
  turn: { id: string; conversationId: string },
  why: string,
): Promise<boolean> {
  if (!(await hub.turns.transition(turn.id, ['running', 'waiting'], 'cancelled'))) return false;
  runner.abort(turn.id);
  // The step may be running on another instance: it aborts its model call there.
  hub.signals.send({ kind: 'cancel', turnId: turn.id });
  for (const status of ['interrupt', 'consensus'] as const) {
    for (const call of await hub.toolCalls.pendingOfTurn(turn.id, status)) {
      // No runner: the turn is over, nothing goes on.
      const closed = await resolveCall(hub, undefined, {
        call,
        conversationId: turn.conversationId,
        from: status,
        to: 'done',
        fields: { output: errorOutput('cancelled', why) },
      });
      if (closed) hub.tracing.waitEnded(call.id, 'cancelled');
    }
  }
  await hub.conversations.releaseTurn(turn.conversationId, turn.id);
  await hub.releaseServerTools(turn.id);
  await hub.events.append(turn.conversationId, { type: 'turn.cancelled', turnId: turn.id });
  hub.tracing.turnEnded(turn.id, 'cancelled');
  return true;
}
