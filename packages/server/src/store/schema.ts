import type { ConnectionTransport } from '@diosc/protocol';
import type { FilesDatabase } from './files-schema.js';
import type { HubDatabase } from './hub-schema.js';

/**
 * Row types of every table. Times are epoch milliseconds (BIGINT on PostgreSQL, INTEGER on SQLite);
 * JSON values are TEXT so one set of queries serves both dialects.
 */
export interface AccountsTable {
  id: string;
  email: string;
  display_name: string;
  password_hash: string | null;
  created_at: number;
}

export interface CollectionsTable {
  account_id: string;
  id: string;
  kind: 'inbox' | 'storage' | 'external';
  title: string;
  provider: string | null;
  created_at: number;
  /** When the owner disconnected the provider source of an external collection; null while connected. */
  source_disconnected_at: number | null;
}

export interface ItemsTable {
  account_id: string;
  collection_id: string;
  id: string;
  title: string;
  content_type: string;
  content: string;
  metadata: string | null;
  version: number;
  size_bytes: number;
  created_at: number;
  updated_at: number;
}

export interface ReceiptsTable {
  actor: string;
  request_id: string;
  account_id: string;
  function_name: string;
  input_digest: string;
  status: 'in_flight' | 'committed';
  result: string | null;
  lease_expires_at: number;
  created_at: number;
  completed_at: number | null;
}

export interface SessionsTable {
  id_hash: string;
  account_id: string;
  generation: number;
  csrf_secret: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ended_at: number | null;
}

export interface AppConnectionsTable {
  id: string;
  account_id: string;
  display_name: string;
  transport: ConnectionTransport;
  provenance: string;
  grant_json: string;
  grant_generation: number;
  session_id_hash: string | null;
  token_hash: string | null;
  token_expires_at: number | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface UsageTable {
  id: string;
  account_id: string;
  connection_id: string | null;
  transport: string;
  request_id: string | null;
  tool: string;
  collection_id: string | null;
  outcome: string;
  duration_ms: number;
  created_at: number;
}

export interface ReviewReceiptsTable {
  id: string;
  account_id: string;
  session_id_hash: string;
  connection_id: string;
  grant_generation: number;
  function_name: string;
  args_digest: string;
  args_json: string;
  acknowledged_at: number | null;
  used_at: number | null;
  created_at: number;
  expires_at: number;
}

/** One fixed window of a request-rate limit, shared by every instance (`http/shared-rate-store.ts`). */
export interface RateWindowsTable {
  /** The limit's namespace and the limited key (client address, visitor, sign-in email). */
  bucket: string;
  window_start: number;
  hits: number;
}

/** One decision of the audit (`audit/audit-log.ts`); `edited_fields` is a JSON array of names. */
export interface AuditRecordsTable {
  id: string;
  at: number;
  instance: string;
  /** Set on account-level records (grants, reviews); the assistant places the others. */
  account_id: string | null;
  assistant_id: string | null;
  actor_kind: string;
  actor_id: string;
  kind: string;
  subject: string;
  args_digest: string | null;
  edited_fields: string;
  outcome: string;
}

export interface Database extends HubDatabase, FilesDatabase {
  accounts: AccountsTable;
  collections: CollectionsTable;
  items: ItemsTable;
  receipts: ReceiptsTable;
  sessions: SessionsTable;
  app_connections: AppConnectionsTable;
  usage: UsageTable;
  review_receipts: ReviewReceiptsTable;
  rate_windows: RateWindowsTable;
  audit_records: AuditRecordsTable;
}

export type { HubFileChunksTable, HubFilesTable } from './files-schema.js';
export type {
  HubAssistantsTable,
  HubConversationsTable,
  HubEventsTable,
  HubMessagesTable,
  HubModelUsageTable,
  HubToolCallsTable,
  HubTurnsTable,
  HubVisitorSessionsTable,
} from './hub-schema.js';
