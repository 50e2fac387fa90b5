import type { Kysely, Migration } from 'kysely';

/** The hub's model token counts per step, for the owner's usage view. */
export const hubModelUsageMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('hub_model_usage')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('assistant_id', 'text', (c) =>
        c.notNull().references('hub_assistants.id').onDelete('cascade'),
      )
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('turn_id', 'text', (c) => c.notNull())
      .addColumn('input_tokens', 'integer', (c) => c.notNull())
      .addColumn('output_tokens', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('hub_model_usage_by_assistant')
      .on('hub_model_usage')
      .columns(['assistant_id', 'created_at'])
      .execute();
  },
};
