/** Row types of the assistant hub's tables (same conventions as schema.ts: epoch ms, JSON as TEXT). */
export interface HubAssistantsTable {
  id: string;
  account_id: string;
  name: string;
  publishable_key: string;
  /** AssistantConfig JSON — never a secret. */
  config_json: string;
  /** Encrypted AssistantSecrets JSON (provider key, identity secret, MCP tokens), or null. */
  secrets_enc: string | null;
  created_at: number;
  updated_at: number;
}

export interface HubVisitorSessionsTable {
  token_hash: string;
  id: string;
  assistant_id: string;
  visitor_id: string;
  origin: string;
  created_at: number;
  expires_at: number;
}

export interface HubConversationsTable {
  id: string;
  assistant_id: string;
  visitor_id: string;
  title: string;
  /** The turn that is running or waiting, if any: one at a time per conversation. */
  active_turn_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface HubMessagesTable {
  conversation_id: string;
  seq: number;
  id: string;
  turn_id: string | null;
  role: 'user' | 'assistant' | 'tool';
  /** The AI SDK ModelMessage JSON, without the page snapshot. */
  content_json: string;
  /** The PageSnapshot that came with this message (a user message or a navigate result), if any. */
  snapshot_json: string | null;
  /** Display extras: file descriptors shown as chips. */
  files_json: string | null;
  created_at: number;
}

export interface HubTurnsTable {
  id: string;
  conversation_id: string;
  status: 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';
  step: number;
  /** The PageRegistry the page reported last (swapped by a navigate answer). */
  registry_json: string;
  error_json: string | null;
  lease_owner: string | null;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface HubToolCallsTable {
  id: string;
  turn_id: string;
  step: number;
  /** Order within the step, so the tool message lists results as the model called them. */
  position: number;
  model_call_id: string;
  tool: string;
  kind: 'server' | 'browser' | 'intent' | 'refused';
  args_json: string;
  status: 'ready' | 'running' | 'interrupt' | 'consensus' | 'done';
  severity: string | null;
  args_digest: string;
  /** The input schema the arguments were checked against (for an Edit, re-checked). */
  schema_json: string | null;
  /** The answer (interrupt) or decision (consensus) as received, and its digest for repeats. */
  answer_json: string | null;
  answer_digest: string | null;
  /** The ToolResultOutput the model will read. */
  output_json: string | null;
  expires_at: number | null;
  created_at: number;
  resolved_at: number | null;
}

export interface HubEventsTable {
  conversation_id: string;
  id: number;
  type: string;
  data_json: string;
  created_at: number;
}

/**
 * One model step's token counts. Kept by assistant, not by conversation (no foreign key to it), so
 * deleting a conversation does not rewrite what its model calls used.
 */
export interface HubModelUsageTable {
  id: string;
  assistant_id: string;
  conversation_id: string;
  turn_id: string;
  input_tokens: number;
  output_tokens: number;
  created_at: number;
}

export interface HubDatabase {
  hub_model_usage: HubModelUsageTable;
  hub_assistants: HubAssistantsTable;
  hub_visitor_sessions: HubVisitorSessionsTable;
  hub_conversations: HubConversationsTable;
  hub_messages: HubMessagesTable;
  hub_turns: HubTurnsTable;
  hub_tool_calls: HubToolCallsTable;
  hub_events: HubEventsTable;
}
