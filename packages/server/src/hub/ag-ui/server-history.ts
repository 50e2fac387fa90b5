import type { Message } from '@ag-ui/core';
import type { HubServices } from '../hub-services.js';
import { applyToMessages } from './apply-events.js';
import { createEventTranslator } from './event-translator.js';
import { toolCallFaces } from './tool-call-names.js';

/** The conversation as the hub's AG-UI stream has told it, up to one event of the log. */
export interface ServerHistory {
  messages: Message[];
  /** Tool calls whose start the history holds (their later results are streamed). */
  started: Set<string>;
}

const PAGE = 500;

/**
 * The AG-UI messages a client holds after every run up to `upTo` (an event id): the log replayed
 * through the live translator, with each visitor message as the hub stored it. This is what a
 * re-sent history is checked against, and what a `MESSAGES_SNAPSHOT` sends when a client is behind.
 */
export async function serverHistory(
  hub: HubServices,
  conversationId: string,
  upTo: number,
): Promise<ServerHistory> {
  const translator = createEventTranslator(toolCallFaces(hub, conversationId));
  const stored = await hub.conversations.messages(conversationId);
  const userText = new Map(
    stored
      .filter((message) => message.role === 'user')
      .map((message) => [message.id, plainText(message.content.content)]),
  );
  const messages: Message[] = [];
  let cursor = 0;
  for (;;) {
    const batch = (await hub.events.after(conversationId, cursor, PAGE)).filter((event) => event.id <= upTo);
    for (const event of batch) {
      const { events, userMessageId } = await translator.translate(event);
      if (userMessageId)
        messages.push({ id: userMessageId, role: 'user', content: userText.get(userMessageId) ?? '' });
      applyToMessages(messages, events);
    }
    if (batch.length < PAGE) break;
    cursor = batch.at(-1)!.id;
  }
  applyToMessages(messages, translator.closeText());
  return { messages, started: translator.started };
}

function plainText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
    .join('');
}
