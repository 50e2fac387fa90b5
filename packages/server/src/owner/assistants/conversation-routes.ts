import type { FastifyInstance } from 'fastify';
import { deleteConversation } from '../../hub/conversations/delete-conversation.js';
import { conversationIdOf, hubOf, integerParam, ownedAssistant, queryOf } from './assistant-scope.js';

/** The assistant's conversations: the list, one transcript, and deleting one with its files. */
export function registerConversationRoutes(app: FastifyInstance): void {
  app.get('/:id/conversations', async (request) => {
    const query = queryOf(request, ['limit', 'cursor']);
    const limit = integerParam(query.limit, 'limit', 1, 100, 25);
    const assistant = await ownedAssistant(app, request);
    return hubOf(app).services.conversationAdmin.list(assistant.id, limit, query.cursor);
  });

  app.get('/:id/conversations/:conversationId', async (request) => {
    queryOf(request, []);
    const assistant = await ownedAssistant(app, request);
    return hubOf(app).services.conversationAdmin.transcript(assistant.id, conversationIdOf(request));
  });

  app.delete('/:id/conversations/:conversationId', async (request) => {
    const assistant = await ownedAssistant(app, request);
    const { services, runner } = hubOf(app);
    return deleteConversation(services, runner, assistant.id, conversationIdOf(request));
  });
}
