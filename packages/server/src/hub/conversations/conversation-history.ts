import type { Conversations, StoredMessage } from '../store/conversations.js';

/**
 * Each conversation's messages, kept in this process and read from the store only past the last
 * one it holds. Messages are append-only and numbered (`seq`), so reading "after the last seq" is
 * all it takes to catch up, whichever instance appended them: a model step parses only what is
 * new, and the prompt built from these objects is converted once per message (model-prompt.ts).
 * A message this process appends joins the kept history once its transaction commits, so a reader
 * told how far the store goes (`through`, from a read it made anyway) reads nothing at all.
 * The kept histories are bounded by their size in the store, least recently used first out.
 */
export interface ConversationHistory {
  /**
   * The conversation's messages in order, as they are now (an array of the caller's own: later
   * appends do not reach it). The messages are shared objects: callers never change them. With
   * `through` (the conversation's last message number, as a read of the caller's saw it), a kept
   * history that reaches it is returned without reading the store.
   */
  messages(conversationId: string, options?: { through?: number }): Promise<readonly StoredMessage[]>;
  /** A message this process appended, once it is committed; kept only if it follows the last kept. */
  appended(conversationId: string, message: StoredMessage): void;
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
  /** The highest message number known to be stored: above the last kept, the next read catches up. */
  stored: number;
}

const lastSeq = (entry: Kept | undefined) => entry?.messages.at(-1)?.seq ?? 0;

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

  /** Keeps `entry` as the most recently used; the oldest leave first when over the budget. */
  const keep = (conversationId: string, entry: Kept) => {
    kept.set(conversationId, entry);
    chars += entry.chars;
    while (chars > limits.maxChars || kept.size > limits.maxConversations) {
      drop(kept.keys().next().value as string);
    }
  };

  return {
    async messages(conversationId, options) {
      const read = kept.get(conversationId);
      if (read && options?.through !== undefined && lastSeq(read) >= Math.max(options.through, read.stored)) {
        drop(conversationId);
        keep(conversationId, read);
        return read.messages.slice();
      }
      const fresh = await conversations.messagesAfter(conversationId, lastSeq(read));
      // Another read may have kept (or dropped) this conversation meanwhile: build on what is kept now.
      const entry = kept.get(conversationId) ?? read ?? { messages: [], chars: 0, stored: 0 };
      drop(conversationId);
      for (const message of fresh) {
        if (message.seq <= lastSeq(entry)) continue;
        entry.messages.push(message);
        entry.chars += message.storedChars;
      }
      entry.stored = Math.max(entry.stored, lastSeq(entry));
      keep(conversationId, entry);
      return entry.messages.slice();
    },
    appended(conversationId, message) {
      const entry =
        kept.get(conversationId) ?? (message.seq === 1 ? { messages: [], chars: 0, stored: 0 } : undefined);
      if (!entry) return;
      drop(conversationId);
      if (message.seq === lastSeq(entry) + 1) {
        entry.messages.push(message);
        entry.chars += message.storedChars;
      }
      entry.stored = Math.max(entry.stored, message.seq);
      keep(conversationId, entry);
    },
    forget: drop,
  };
}
