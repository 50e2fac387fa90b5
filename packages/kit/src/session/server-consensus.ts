import type { ConsensusDecision, ConsensusRequest } from '@diosc/protocol';
import { errorCode, errorText } from '../browser-calls/browser-call.js';
import type { HubClient } from '../hub-client/hub-client.js';
import { emit, type KitContext } from '../kit-context.js';

export interface ServerConsensus {
  handle(request: ConsensusRequest): void;
  resolved(consensusId: string): void;
  turnEnded(turnId: string): void;
  stop(): void;
}

/**
 * The hub's Consensus requests (server tools that ask for approval) go through the same dialog as
 * intents. Only the decision travels back — bound to the request's `argsDigest` — and, for Edit, the
 * visitor's values, which the hub validates again before anything runs.
 */
export function createServerConsensus(kit: KitContext, client: HubClient): ServerConsensus {
  const active = new Map<string, { turnId: string; controller: AbortController }>();
  const withdraw = (id: string) =>
    active.get(id)?.controller.abort(new DOMException('Decided elsewhere.', 'AbortError'));

  return {
    handle(request) {
      if (active.has(request.id)) return;
      const controller = new AbortController();
      active.set(request.id, { turnId: request.turnId, controller });
      const ask = kit.consensus.ask(
        {
          id: request.id,
          source: 'server',
          tool: request.tool,
          severity: request.severity,
          summary: request.summary,
          diff: [],
          args: request.args,
          schema: request.schema,
        },
        controller.signal,
      );
      void ask
        .then(async (choice) => {
          emit(kit, 'consensus', { tool: request.tool, decision: choice.outcome });
          const body: ConsensusDecision = { decision: choice.outcome, argsDigest: request.argsDigest };
          if (choice.outcome === 'edit' && choice.args) body.args = choice.args;
          if (choice.outcome === 'reject' && choice.reason) body.reason = choice.reason;
          await client.call('decideConsensus', { id: request.id, body });
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          emit(kit, 'error', {
            code: errorCode(error),
            message: errorText(error),
          });
        })
        .finally(() => active.delete(request.id));
    },
    resolved: withdraw,
    turnEnded(turnId) {
      for (const [id, each] of active) if (each.turnId === turnId) withdraw(id);
    },
    stop() {
      for (const id of active.keys()) withdraw(id);
    },
  };
}
