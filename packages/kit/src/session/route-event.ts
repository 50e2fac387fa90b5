import type { HubEvent } from '@diosc/protocol';
import type { InterruptRunner } from '../browser-calls/interrupt-runner.js';
import { reduceEvent } from '../conversation/conversation-state.js';
import { emit, type KitContext } from '../kit-context.js';
import type { ServerConsensus } from './server-consensus.js';

/**
 * One hub event: into the widget's state first, then to whoever acts on it — the interrupt runner,
 * the dialog's queue for Consensus, the host's listeners — and a turn's end withdraws what it left
 * open.
 */
export function routeEvent(
  kit: KitContext,
  event: HubEvent,
  runner: InterruptRunner,
  consensus: ServerConsensus,
) {
  kit.state.update((state) => reduceEvent(state, event));
  switch (event.type) {
    case 'interrupt':
      return runner.handle(event.interrupt);
    case 'interrupt.resolved':
      return runner.resolved(event.interruptId);
    case 'consensus.requested':
      return consensus.handle(event.request);
    case 'consensus.resolved':
      return consensus.resolved(event.consensusId);
    case 'tool.started':
      return emit(kit, 'tool', { tool: event.tool, where: event.where, phase: 'started' });
    case 'tool.finished': {
      const row = kit.state.get().draft?.tools.find((tool) => tool.toolCallId === event.toolCallId);
      return emit(kit, 'tool', {
        tool: event.tool,
        where: row?.where ?? 'browser',
        phase: 'finished',
        ok: event.ok,
      });
    }
    case 'message':
      if (event.message.role === 'assistant') emit(kit, 'message', event.message);
      return;
    case 'turn.failed':
      emit(kit, 'error', event.error);
      break;
  }
  if (event.type === 'turn.done' || event.type === 'turn.failed' || event.type === 'turn.cancelled') {
    runner.turnEnded(event.turnId);
    consensus.turnEnded(event.turnId);
  }
}
