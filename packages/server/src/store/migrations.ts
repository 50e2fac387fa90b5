import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { auditMigration } from './audit-migration.js';
import { filesMigration } from './files-migration.js';
import { hubMigration } from './hub-migration.js';
import { hubModelUsageMigration } from './hub-usage-migration.js';

/**
 * Migrations, in code so a bundled server needs no migration folder. Column types are the subset
 * SQLite and PostgreSQL share; `bigint` holds epoch milliseconds.
 */
const migrations: Record<string, Migration> = {
  '0001_account_core': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('collections')
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('provider', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('collections_pk', ['account_id', 'id'])
        .execute();
      await db.schema
        .createTable('items')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('collection_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('items_pk', ['account_id', 'collection_id', 'id'])
        .addForeignKeyConstraint(
          'items_collection_fk',
          ['account_id', 'collection_id'],
          'collections',
          ['account_id', 'id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      // Matches items_list's order (updated_at DESC, id ASC) so a page is an index range scan.
      await sql`create index items_by_change on items (account_id, collection_id, updated_at desc, id)`.execute(
        db,
      );
      await db.schema
        .createTable('receipts')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('function_name', 'text', (c) => c.notNull())
        .addColumn('input_digest', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('lease_expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('completed_at', 'bigint')
        .addPrimaryKeyConstraint('receipts_pk', ['actor', 'request_id'])
        .execute();
      await db.schema.createIndex('receipts_by_age').on('receipts').columns(['created_at']).execute();
    },
  },
  '0002_access': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('generation', 'integer', (c) => c.notNull())
        .addColumn('csrf_secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('ended_at', 'bigint')
        .execute();
      await db.schema
        .createTable('app_connections')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('transport', 'text', (c) => c.notNull())
        .addColumn('provenance', 'text', (c) => c.notNull())
        .addColumn('grant_json', 'text', (c) => c.notNull())
        .addColumn('grant_generation', 'integer', (c) => c.notNull())
        .addColumn('session_id_hash', 'text')
        .addColumn('token_hash', 'text', (c) => c.unique())
        .addColumn('token_expires_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createTable('usage')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('connection_id', 'text')
        .addColumn('transport', 'text', (c) => c.notNull())
        .addColumn('request_id', 'text')
        .addColumn('tool', 'text', (c) => c.notNull())
        .addColumn('collection_id', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('usage_by_account')
        .on('usage')
        .columns(['account_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('review_receipts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('session_id_hash', 'text', (c) => c.notNull())
        .addColumn('connection_id', 'text', (c) => c.notNull())
        .addColumn('grant_generation', 'integer', (c) => c.notNull())
        .addColumn('function_name', 'text', (c) => c.notNull())
        .addColumn('args_digest', 'text', (c) => c.notNull())
        .addColumn('args_json', 'text', (c) => c.notNull())
        .addColumn('acknowledged_at', 'bigint')
        .addColumn('used_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0003_hub': hubMigration,
  '0004_files': filesMigration,
  // When the owner disconnected an external collection's provider source (null: connected). The
  // row stays, so calls naming it answer `source_revoked` instead of `not_found`, and its ID can
  // never be taken by another source that old grants would then silently reach.
  '0005_collection_sources': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('collections').addColumn('source_disconnected_at', 'bigint').execute();
    },
  },
  // Request-rate windows shared by every instance over one PostgreSQL (`http/shared-rate-store.ts`).
  '0006_rate_windows': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rate_windows')
        .addColumn('bucket', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('rate_windows_by_start')
        .on('rate_windows')
        .column('window_start')
        .execute();
    },
  },
  '0007_hub_model_usage': hubModelUsageMigration,
  '0008_audit_records': auditMigration,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Every migration this build knows, in order: a store is current when all of them are applied. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Store migration ${failed} failed`, { cause: error });
  }
}

export { sql };
