import type { FileDescriptor, SendMessageRequest, SendMessageResponse } from '@diosc/protocol';
import { readSnapshot } from '../adapter/browser-adapter.js';
import { addMessage } from '../conversation/conversation-state.js';
import type { HubClient } from '../hub-client/hub-client.js';
import { type KitContext, pageRegistry } from '../kit-context.js';

/**
 * A visitor message with the page's snapshot and registry (metadata only). It shows at once,
 * before the reply can stream in, under a local id renamed to the hub's when it answers (and taken
 * out again when the hub refuses it).
 */
export async function sendMessage(
  kit: KitContext,
  client: HubClient,
  conversationId: string,
  text: string,
  attachments: FileDescriptor[],
): Promise<void> {
  const snapshot = await readSnapshot(kit.adapter.get());
  const body: SendMessageRequest = { text, registry: pageRegistry(kit) };
  if (snapshot) body.snapshot = snapshot;
  if (attachments.length > 0) body.attachments = attachments.map((file) => file.fileId);
  const localId = `local-${crypto.randomUUID()}`;
  const mine = {
    id: localId,
    role: 'user' as const,
    text,
    files: attachments,
    tools: [],
    createdAt: new Date().toISOString(),
  };
  kit.state.update((state) => ({ ...addMessage(state, mine), notice: null }));
  let sent: SendMessageResponse;
  try {
    sent = await client.call('sendMessage', { id: conversationId, body });
  } catch (error) {
    kit.state.update((state) => ({
      ...state,
      messages: state.messages.filter((each) => each.id !== localId),
    }));
    throw error;
  }
  kit.state.update((state) => ({
    ...state,
    messages: state.messages.map((each) => (each.id === localId ? { ...each, id: sent.messageId } : each)),
    turn: state.turn?.id === sent.turnId ? state.turn : { id: sent.turnId, status: 'running' },
  }));
}
