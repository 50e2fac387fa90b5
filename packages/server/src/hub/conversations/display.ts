import type { ConversationMessage, ToolActivity } from '@diosc/protocol';
import type { AssistantModelMessage, ToolModelMessage } from 'ai';
import type { StoredMessage } from '../store/conversations.js';

function textOf(message: StoredMessage): string {
  const content = message.content.content;
  if (typeof content === 'string') return content;
  return content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('')
    .trim();
}

/**
 * Conversation messages as the widget shows them: each user message, and one assistant message
 * per turn gathering its text, its tool activity and its file chips.
 */
export function displayMessages(
  messages: StoredMessage[],
  locations: ReadonlyMap<string, 'server' | 'browser'> = new Map(),
): ConversationMessage[] {
  const out: ConversationMessage[] = [];
  const byTurn = new Map<string, ConversationMessage>();
  const toolsById = new Map<string, ToolActivity>();
  for (const message of messages) {
    if (message.role === 'user') {
      out.push({
        id: message.id,
        role: 'user',
        text: textOf(message),
        files: message.files,
        tools: [],
        createdAt: new Date(message.createdAt).toISOString(),
      });
      continue;
    }
    const key = message.turnId ?? message.id;
    let display = byTurn.get(key);
    if (!display) {
      display = {
        id: message.id,
        role: 'assistant',
        text: '',
        files: [],
        tools: [],
        createdAt: new Date(message.createdAt).toISOString(),
      };
      byTurn.set(key, display);
      out.push(display);
    }
    display.files.push(...message.files);
    if (message.role === 'assistant') {
      const text = textOf(message);
      if (text) display.text = display.text ? `${display.text}\n\n${text}` : text;
      const content = (message.content as AssistantModelMessage).content;
      if (typeof content !== 'string') {
        for (const part of content) {
          if (part.type !== 'tool-call') continue;
          const activity: ToolActivity = {
            toolCallId: part.toolCallId,
            tool: part.toolName,
            where: locations.get(part.toolCallId) ?? 'server',
            ok: null,
          };
          toolsById.set(part.toolCallId, activity);
          display.tools.push(activity);
        }
      }
    } else {
      for (const part of (message.content as ToolModelMessage).content) {
        if (part.type !== 'tool-result') continue;
        const activity = toolsById.get(part.toolCallId);
        if (activity) activity.ok = part.output.type === 'json' || part.output.type === 'text';
      }
    }
  }
  return out;
}

export function displayMessageOf(
  messages: readonly StoredMessage[],
  turnId: string,
  locations: ReadonlyMap<string, 'server' | 'browser'>,
): ConversationMessage | undefined {
  const turnMessages = messages.filter((message) => message.turnId === turnId && message.role !== 'user');
  return displayMessages(turnMessages, locations)[0];
}
