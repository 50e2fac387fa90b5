import { type ConversationView, HUB_ROUTES } from '@diosc/protocol';
import { validateHubBody } from '@diosc/protocol/validators';
import type { FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import { displayMessages } from '../conversations/display.js';
import type { Hub } from '../hub.js';
import { turnView } from '../store/turns.js';
import { consensusRequestOf } from '../tool-calls/consensus-request.js';
import { interruptOf } from '../tool-calls/interrupt-view.js';
import { sendMessage } from '../turns/send-message.js';

/** A visitor's conversations: create, list, read back (for a reload), and send a message. */
export function conversationRoutes(deps: Hub, messageLimit: preHandlerAsyncHookHandler): FastifyPluginAsync {
  const hub = deps.services;
  return async (app) => {
    app.post(HUB_ROUTES.createConversation.path, async (request, reply) => {
      if (request.body !== undefined) validateEmpty(request.body);
      const visitor = request.visitor!;
      const row = await hub.conversations.create(visitor.assistantId, visitor.visitorId);
      reply.status(HUB_ROUTES.createConversation.status);
      return { id: row.id };
    });

    app.get(HUB_ROUTES.listConversations.path, async (request) => ({
      conversations: await hub.conversations.listFor(request.visitor!),
    }));

    app.get<{ Params: { id: string } }>(HUB_ROUTES.conversation.path, async (request) => {
      const conversation = await hub.conversations.requireOwned(request.params.id, request.visitor!);
      const [messages, turn, lastEventId] = await Promise.all([
        hub.conversations.messages(conversation.id),
        hub.turns.latestOf(conversation.id),
        hub.events.lastId(conversation.id),
      ]);
      const active = turn && (turn.status === 'running' || turn.status === 'waiting');
      const view: ConversationView = {
        id: conversation.id,
        messages: displayMessages(
          messages,
          await hub.toolCalls.locations([
            ...new Set(messages.flatMap((message) => (message.turnId ? [message.turnId] : []))),
          ]),
        ),
        turn: turn ? turnView(turn) : null,
        pendingInterrupts: active
          ? (await hub.toolCalls.pendingOfTurn(turn.id, 'interrupt')).map((call) =>
              interruptOf(call, conversation.id),
            )
          : [],
        pendingConsensus: active
          ? (await hub.toolCalls.pendingOfTurn(turn.id, 'consensus')).map(consensusRequestOf)
          : [],
        lastEventId,
      };
      return view;
    });

    app.post<{ Params: { id: string } }>(
      HUB_ROUTES.sendMessage.path,
      { preHandler: messageLimit },
      async (request, reply) => {
        const body = validateHubBody('sendMessage', request.body);
        const response = await sendMessage(deps, request.visitor!, {
          conversationId: request.params.id,
          body,
        });
        reply.status(HUB_ROUTES.sendMessage.status);
        return response;
      },
    );
  };
}

function validateEmpty(body: unknown): void {
  if (typeof body !== 'object' || Array.isArray(body) || Object.keys(body as object).length > 0) {
    validateHubBody('emptyBody', body);
  }
}
