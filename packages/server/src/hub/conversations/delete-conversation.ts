import type { ConversationDeletion } from '@diosc/protocol';
import type { HubServices } from '../hub-services.js';
import { stopTurn } from '../turns/cancel-turn.js';
import type { TurnRunner } from '../turns/turn-runner.js';

/**
 * The owner deletes a conversation: a turn still running or waiting is stopped first, then the
 * conversation goes with everything that hangs off it — messages, turns, tool calls, events and its
 * files, bytes included (the store's cascades, on both dialects).
 */
export async function deleteConversation(
  hub: HubServices,
  runner: TurnRunner,
  assistantId: string,
  conversationId: string,
): Promise<ConversationDeletion> {
  const row = await hub.conversationAdmin.requireOfAssistant(assistantId, conversationId);
  if (row.active_turn_id) {
    await stopTurn(hub, runner, { id: row.active_turn_id, conversationId }, 'The conversation was deleted.');
  }
  const filesDeleted = await hub.files.removeConversation(conversationId);
  await hub.conversations.remove(conversationId);
  return { id: conversationId, deleted: true, filesDeleted };
}
