import type { Kysely, Migration } from 'kysely';

/**
 * The audit of decisions (`audit/audit-log.ts`). No foreign keys on purpose: a record outlives the
 * assistant, connection or account it names, until the retention period removes it.
 */
export const auditMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('audit_records')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('instance', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text')
      .addColumn('assistant_id', 'text')
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('args_digest', 'text')
      .addColumn('edited_fields', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('audit_records_by_assistant')
      .on('audit_records')
      .columns(['assistant_id', 'at'])
      .execute();
    await db.schema
      .createIndex('audit_records_by_account')
      .on('audit_records')
      .columns(['account_id', 'at'])
      .execute();
    await db.schema.createIndex('audit_records_by_age').on('audit_records').column('at').execute();
  },
};
