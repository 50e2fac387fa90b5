import type { FileDescriptor } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import { deleteConversation } from '../../hub/turns/delete-conversation.js';
import { conversationIdOf, hubOf, integerParam, ownedAssistant, queryOf } from './assistant-scope.js';
import { ownerFileUrl } from './file-routes.js';

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
    const transcript = await hubOf(app).services.conversationAdmin.transcript(
      assistant.id,
      conversationIdOf(request),
    );
    // The owner reads a chip's file through the owner API, not the visitor's download URL.
    const chip = (file: FileDescriptor): FileDescriptor => ({
      ...file,
      downloadUrl: ownerFileUrl(assistant.id, file.fileId),
    });
    return {
      ...transcript,
      messages: transcript.messages.map((message) => ({ ...message, files: message.files.map(chip) })),
      turns: transcript.turns.map((turn) => ({
        ...turn,
        toolCalls: turn.toolCalls.map((call) => ({ ...call, files: call.files.map(chip) })),
      })),
    };
  });

  app.delete('/:id/conversations/:conversationId', async (request) => {
    const assistant = await ownedAssistant(app, request);
    return deleteConversation(hubOf(app), {
      assistantId: assistant.id,
      conversationId: conversationIdOf(request),
    });
  });
}
