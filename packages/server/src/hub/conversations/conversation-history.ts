import type { Conversations, StoredMessage } from '../store/conversations.js';

/**
 * Each conversation's messages, kept in this process and read from the store only past the last
 * one it holds. Messages are append-only and numbered (`seq`), so reading "after the last seq" is
 * all it takes to catch up, whichever instance appended them: a model step parses only what is
 * new, and the prompt built from these objects is converted once per message (model-prompt.ts).
 * The kept histories are bounded by their size in the store, least recently used first out.
 */
export interface ConversationHistory {
  /** The conversation's messages in order. Shared objects: callers never change them. */
  messages(conversationId: string): Promise<readonly StoredMessage[]>;
  /** A deleted conversation's messages leave memory at once. */
  forget(conversationId: string): void;
}

export interface ConversationHistoryLimits {
  /** Characters of stored JSON kept over all conversations. */
  maxChars: number;
  maxConversations: number;
}

export const HISTORY_LIMITS: ConversationHistoryLimits = {
  maxChars: 16 * 1024 * 1024,
  maxConversations: 1_000,
};

interface Kept {
  messages: StoredMessage[];
  chars: number;
}

export function createConversationHistory(
  conversations: Pick<Conversations, 'messagesAfter'>,
  limits: ConversationHistoryLimits = HISTORY_LIMITS,
): ConversationHistory {
  const kept = new Map<string, Kept>();
  let chars = 0;

  const drop = (conversationId: string) => {
    const entry = kept.get(conversationId);
    if (!entry) return;
    kept.delete(conversationId);
    chars -= entry.chars;
  };

  return {
    async messages(conversationId) {
      const read = kept.get(conversationId);
      const fresh = await conversations.messagesAfter(conversationId, read?.messages.at(-1)?.seq ?? 0);
      // Another read may have kept (or dropped) this conversation meanwhile: build on what is kept now.
      const entry = kept.get(conversationId) ?? read ?? { messages: [], chars: 0 };
      drop(conversationId);
      for (const message of fresh) {
        if (message.seq <= (entry.messages.at(-1)?.seq ?? 0)) continue;
        entry.messages.push(message);
        entry.chars += message.storedChars;
      }
      // Most recently used last; the oldest leave first when over the budget.
      kept.set(conversationId, entry);
      chars += entry.chars;
      while (chars > limits.maxChars || kept.size > limits.maxConversations) {
        drop(kept.keys().next().value as string);
      }
      return entry.messages;
    },
    forget: drop,
  };
}
