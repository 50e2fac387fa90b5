import { randomUUID } from 'node:crypto';
import {
  type ConversationSummary,
  DioscError,
  type FileDescriptor,
  type PageSnapshot,
} from '@diosc/protocol';
import type { ModelMessage } from 'ai';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database, HubConversationsTable, HubMessagesTable } from '../../store/schema.js';
import { isUniqueViolation } from '../../store/store-errors.js';

export interface StoredMessage {
  id: string;
  seq: number;
  turnId: string | null;
  role: 'user' | 'assistant' | 'tool';
  content: ModelMessage;
  snapshot: PageSnapshot | null;
  files: FileDescriptor[];
  createdAt: number;
  /** The size of its stored JSON in characters: what a history kept in memory counts. */
  storedChars: number;
}

/** The ids `create` makes; anything else names no conversation. */
const CONVERSATION_ID = /^cnv_[0-9a-f-]{36}$/;
const APPEND_ATTEMPTS = 8;

/** A message's size in the store: the characters of its three JSON columns. */
function storedChars(content: string, snapshot: string | null, files: string | null): number {
  return content.length + (snapshot?.length ?? 0) + (files?.length ?? 0);
}

/** A message as stored: read back, or just appended (parsed from what was written, never the caller's objects). */
function storedMessageOf(row: HubMessagesTable): StoredMessage {
  return {
    storedChars: storedChars(row.content_json, row.snapshot_json, row.files_json),
    id: row.id,
    seq: Number(row.seq),
    turnId: row.turn_id,
    role: row.role,
    content: JSON.parse(row.content_json) as ModelMessage,
    snapshot: row.snapshot_json ? (JSON.parse(row.snapshot_json) as PageSnapshot) : null,
    files: row.files_json ? (JSON.parse(row.files_json) as FileDescriptor[]) : [],
    createdAt: Number(row.created_at),
  };
}

/**
 * Conversations and their messages; this module owns `hub_conversations` and `hub_messages`.
 * `appended` hears of each message appended through this store (in a transaction, the hub calls it
 * once the transaction commits), so the history kept in memory need not read it back.
 */
export function createConversations(
  db: Kysely<Database>,
  clock: Clock,
  appended: (conversationId: string, message: StoredMessage) => void = () => {},
) {
  /** The messages appended after `seq`, in order: a history kept in memory reads only what is new. */
  async function messagesAfter(conversationId: string, seq: number): Promise<StoredMessage[]> {
    const rows = await db
      .selectFrom('hub_messages')
      .selectAll()
      .where('conversation_id', '=', conversationId)
      .where('seq', '>', seq)
      .orderBy('seq')
      .execute();
    return rows.map(storedMessageOf);
  }

  return {
    async create(assistantId: string, visitorId: string): Promise<HubConversationsTable> {
      const now = clock.now();
      const row: HubConversationsTable = {
        id: `cnv_${randomUUID()}`,
        assistant_id: assistantId,
        visitor_id: visitorId,
        title: 'New conversation',
        active_turn_id: null,
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('hub_conversations').values(row).execute();
      return row;
    },

    /**
     * The conversation, if it belongs to this visitor of this assistant. Another visitor's
     * conversation answers exactly like one that does not exist.
     */
    async requireOwned(id: string, owner: { assistantId: string; visitorId: string }) {
      // Only an id of ours reaches the store: PostgreSQL refuses text with NUL in it (a 500 the
      // hub fuzz found with `/conversations/a%00b`), and nothing else can name a conversation.
      if (!CONVERSATION_ID.test(id)) throw new DioscError('not_found', 'There is no such conversation.');
      const row = await db
        .selectFrom('hub_conversations')
        .selectAll()
        .where('id', '=', id)
        .where('assistant_id', '=', owner.assistantId)
        .where('visitor_id', '=', owner.visitorId)
        .executeTakeFirst();
      if (!row) throw new DioscError('not_found', 'There is no such conversation.');
      return row;
    },

    async find(id: string) {
      return db.selectFrom('hub_conversations').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async listFor(owner: { assistantId: string; visitorId: string }): Promise<ConversationSummary[]> {
      const rows = await db
        .selectFrom('hub_conversations')
        .selectAll()
        .where('assistant_id', '=', owner.assistantId)
        .where('visitor_id', '=', owner.visitorId)
        .orderBy('updated_at', 'desc')
        .limit(100)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        title: row.title,
        createdAt: new Date(Number(row.created_at)).toISOString(),
        updatedAt: new Date(Number(row.updated_at)).toISOString(),
      }));
    },

    /** Makes `turnId` the conversation's one active turn, or refuses with `turn_in_progress`. */
    async claimTurn(id: string, turnId: string, title?: string): Promise<void> {
      const result = await db
        .updateTable('hub_conversations')
        .set({
          active_turn_id: turnId,
          updated_at: clock.now(),
          ...(title ? { title } : {}),
        })
        .where('id', '=', id)
        .where('active_turn_id', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new DioscError('turn_in_progress');
    },

    async releaseTurn(id: string, turnId: string): Promise<void> {
      await db
        .updateTable('hub_conversations')
        .set({ active_turn_id: null, updated_at: clock.now() })
        .where('id', '=', id)
        .where('active_turn_id', '=', turnId)
        .execute();
    },

    async appendMessage(
      conversationId: string,
      message: {
        turnId: string | null;
        content: ModelMessage;
        snapshot?: PageSnapshot | null;
        files?: FileDescriptor[];
      },
    ): Promise<StoredMessage> {
      const id = `msg_${randomUUID()}`;
      const now = clock.now();
      const contentJson = JSON.stringify(message.content);
      const snapshotJson = message.snapshot ? JSON.stringify(message.snapshot) : null;
      const filesJson = message.files?.length ? JSON.stringify(message.files) : null;
      const role = message.content.role as StoredMessage['role'];
      for (let attempt = 1; ; attempt++) {
        try {
          // Numbered by the insert itself (`max(seq) + 1`): one statement, and two appenders never
          // share a number — the loser of a race hits the primary key.
          const row = await db
            .insertInto('hub_messages')
            .columns([
              'conversation_id',
              'seq',
              'id',
              'turn_id',
              'role',
              'content_json',
              'snapshot_json',
              'files_json',
              'created_at',
            ])
            .expression((eb) =>
              eb
                .selectFrom('hub_messages')
                .where('conversation_id', '=', conversationId)
                .select([
                  // PostgreSQL types a parameter in a select list as text unless told (and a null not at all).
                  eb.val(conversationId).as('conversation_id'),
                  eb(eb.fn.coalesce(eb.fn.max('seq'), eb.lit(0)), '+', eb.lit(1)).as('seq'),
                  eb.val(id).as('id'),
                  eb.cast<string | null>(eb.val(message.turnId), 'text').as('turn_id'),
                  eb.val(role).as('role'),
                  eb.val(contentJson).as('content_json'),
                  eb.cast<string | null>(eb.val(snapshotJson), 'text').as('snapshot_json'),
                  eb.cast<string | null>(eb.val(filesJson), 'text').as('files_json'),
                  eb.cast<number>(eb.val(now), 'bigint').as('created_at'),
                ]),
            )
            .returning(['seq'])
            .executeTakeFirstOrThrow();
          const stored = storedMessageOf({
            conversation_id: conversationId,
            seq: row.seq,
            id,
            turn_id: message.turnId,
            role,
            content_json: contentJson,
            snapshot_json: snapshotJson,
            files_json: filesJson,
            created_at: now,
          });
          appended(conversationId, stored);
          return stored;
        } catch (error) {
          // In a transaction a lost race has aborted it (PostgreSQL): the transaction tries again.
          if (db.isTransaction || !isUniqueViolation(error) || attempt >= APPEND_ATTEMPTS) throw error;
        }
      }
    },

    /** Deletes the conversation; its messages, turns, tool calls and events cascade with it. */
    async remove(id: string): Promise<void> {
      await db.deleteFrom('hub_conversations').where('id', '=', id).execute();
    },

    async messages(conversationId: string): Promise<StoredMessage[]> {
      return messagesAfter(conversationId, 0);
    },

    messagesAfter,
  };
}

export type Conversations = ReturnType<typeof createConversations>;
