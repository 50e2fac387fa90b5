import { type Kysely, type Migration, PostgresAdapter } from 'kysely';

/**
 * The hub's files: metadata in `hub_files`, bytes in `hub_file_chunks` (256 KiB rows), so every hub
 * instance on one PostgreSQL reads the same files and SQLite keeps them in its one file. Chunks
 * rather than one value per file: a file streams in and out without ever being whole in memory.
 */
export const filesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // The one type the two dialects do not share: PostgreSQL's binary column is `bytea`.
    const binary = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
    await db.schema
      .createTable('hub_files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('assistant_id', 'text', (c) =>
        c.notNull().references('hub_assistants.id').onDelete('cascade'),
      )
      .addColumn('conversation_id', 'text', (c) =>
        c.notNull().references('hub_conversations.id').onDelete('cascade'),
      )
      .addColumn('visitor_id', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('interrupt_id', 'text')
      .addColumn('tool_call_id', 'text')
      .addColumn('filename', 'text', (c) => c.notNull())
      .addColumn('original_name', 'text', (c) => c.notNull())
      .addColumn('media_type', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('size_bytes', 'bigint', (c) => c.notNull())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('chunk_count', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('hub_files_by_conversation')
      .on('hub_files')
      .columns(['conversation_id', 'status'])
      .execute();
    await db.schema
      .createIndex('hub_files_by_visitor')
      .on('hub_files')
      .columns(['assistant_id', 'visitor_id', 'status'])
      .execute();
    await db.schema
      .createIndex('hub_files_by_expiry')
      .on('hub_files')
      .columns(['status', 'expires_at'])
      .execute();
    await db.schema.createIndex('hub_files_by_tool_call').on('hub_files').columns(['tool_call_id']).execute();
    await db.schema
      .createTable('hub_file_chunks')
      .addColumn('file_id', 'text', (c) => c.notNull().references('hub_files.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('data', binary, (c) => c.notNull())
      .addPrimaryKeyConstraint('hub_file_chunks_pk', ['file_id', 'seq'])
      .execute();
  },
};
