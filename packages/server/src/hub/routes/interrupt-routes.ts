import { HUB_ROUTES, INTERRUPT_ANSWER_MAX_BYTES } from '@diosc/protocol';
import { validateHubBody } from '@diosc/protocol/validators';
import type { FastifyPluginAsync } from 'fastify';
import type { Hub } from '../hub.js';
import { answerInterrupt } from '../tool-calls/answer-interrupt.js';
import { decideConsensus } from '../tool-calls/decide-consensus.js';
import { cancelTurn } from '../turns/cancel-turn.js';

/** The page's answers: an interrupt's result, an approval decision, a cancel. */
export function answerRoutes(hub: Hub): FastifyPluginAsync {
  return async (app) => {
    app.post<{ Params: { id: string } }>(
      HUB_ROUTES.answerInterrupt.path,
      { bodyLimit: INTERRUPT_ANSWER_MAX_BYTES },
      async (request) => {
        const answer = validateHubBody('interruptAnswer', request.body);
        return answerInterrupt(hub, request.visitor!, { interruptId: request.params.id, answer });
      },
    );

    app.post<{ Params: { id: string } }>(HUB_ROUTES.decideConsensus.path, async (request) => {
      const decision = validateHubBody('consensusDecision', request.body);
      return decideConsensus(hub, request.visitor!, { interruptId: request.params.id, decision });
    });

    app.post<{ Params: { id: string } }>(HUB_ROUTES.cancelTurn.path, async (request) => {
      if (request.body !== undefined) validateHubBody('emptyBody', request.body);
      return cancelTurn(hub, request.visitor!, { turnId: request.params.id });
    });
  };
}
