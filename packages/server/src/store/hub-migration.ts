import type { Kysely, Migration } from 'kysely';

/** The assistant hub's tables: assistants, visitor sessions, conversations, turns and the event log. */
export const hubMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('hub_assistants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('publishable_key', 'text', (c) => c.notNull().unique())
      .addColumn('config_json', 'text', (c) => c.notNull())
      .addColumn('secrets_enc', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('hub_assistants_name', ['account_id', 'name'])
      .execute();
    await db.schema
      .createTable('hub_visitor_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('assistant_id', 'text', (c) =>
        c.notNull().references('hub_assistants.id').onDelete('cascade'),
      )
      .addColumn('visitor_id', 'text', (c) => c.notNull())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('hub_conversations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('assistant_id', 'text', (c) =>
        c.notNull().references('hub_assistants.id').onDelete('cascade'),
      )
      .addColumn('visitor_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('active_turn_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('hub_conversations_by_visitor')
      .on('hub_conversations')
      .columns(['assistant_id', 'visitor_id', 'updated_at'])
      .execute();
    await db.schema
      .createTable('hub_messages')
      .addColumn('conversation_id', 'text', (c) =>
        c.notNull().references('hub_conversations.id').onDelete('cascade'),
      )
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('turn_id', 'text')
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('content_json', 'text', (c) => c.notNull())
      .addColumn('snapshot_json', 'text')
      .addColumn('files_json', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('hub_messages_pk', ['conversation_id', 'seq'])
      .execute();
    await db.schema
      .createTable('hub_turns')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('conversation_id', 'text', (c) =>
        c.notNull().references('hub_conversations.id').onDelete('cascade'),
      )
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('step', 'integer', (c) => c.notNull())
      .addColumn('registry_json', 'text', (c) => c.notNull())
      .addColumn('error_json', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('hub_turns_by_status').on('hub_turns').columns(['status']).execute();
    // A conversation's latest turn (a reloaded page reads it) and cascade deletes.
    await db.schema
      .createIndex('hub_turns_by_conversation')
      .on('hub_turns')
      .columns(['conversation_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('hub_tool_calls')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('turn_id', 'text', (c) => c.notNull().references('hub_turns.id').onDelete('cascade'))
      .addColumn('step', 'integer', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('model_call_id', 'text', (c) => c.notNull())
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('args_json', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('severity', 'text')
      .addColumn('args_digest', 'text', (c) => c.notNull())
      .addColumn('schema_json', 'text')
      .addColumn('answer_json', 'text')
      .addColumn('answer_digest', 'text')
      .addColumn('output_json', 'text')
      .addColumn('expires_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('resolved_at', 'bigint')
      .addUniqueConstraint('hub_tool_calls_step', ['turn_id', 'step', 'position'])
      .execute();
    await db.schema
      .createIndex('hub_tool_calls_waiting')
      .on('hub_tool_calls')
      .columns(['status', 'expires_at'])
      .execute();
    await db.schema
      .createTable('hub_events')
      .addColumn('conversation_id', 'text', (c) =>
        c.notNull().references('hub_conversations.id').onDelete('cascade'),
      )
      .addColumn('id', 'integer', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('data_json', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('hub_events_pk', ['conversation_id', 'id'])
      .execute();
  },
};
