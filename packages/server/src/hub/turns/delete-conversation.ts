import type { ConversationDeletion } from '@diosc/protocol';
import type { Hub } from '../hub.js';
import { stopTurn } from './cancel-turn.js';

/**
 * The owner deletes a conversation: a turn still running or waiting is stopped first, then the
 * conversation goes with everything that hangs off it — messages, turns, tool calls, events and its
 * files, bytes included (the store's cascades, on both dialects).
 */
export async function deleteConversation(
  hub: Hub,
  { assistantId, conversationId }: { assistantId: string; conversationId: string },
): Promise<ConversationDeletion> {
  const { services } = hub;
  const row = await services.conversationAdmin.requireOfAssistant(assistantId, conversationId);
  if (row.active_turn_id) {
    await stopTurn(hub, { id: row.active_turn_id, conversationId }, 'The conversation was deleted.');
  }
  const filesDeleted = await services.files.removeConversation(conversationId);
  await services.conversations.remove(conversationId);
  services.history.forget(conversationId);
  return { id: conversationId, deleted: true, filesDeleted };
}
