import type { CollectionFunction } from '../catalog/schemas.js';
import type { ConsensusOutcome, IntentDecisionReport } from '../hub-api/consensus.js';
import type { ConversationMessage } from '../hub-api/events.js';
import type { FileDescriptor } from '../hub-api/files.js';
import type { ApprovalSeverity } from '../hub-api/page.js';
import type { TurnStatus } from '../hub-api/sessions.js';

/**
 * Wire shapes of the owner's assistant admin API (`/api/owner/assistants/*`, contract in
 * docs/api/assistants.md), shared by the server that sends them and the portal that reads them.
 * No response ever carries a provider key, an identity secret or an MCP token: only `{ set }`.
 */

export const MODEL_PROVIDERS = ['auto', 'scripted', 'openai', 'anthropic', 'openai-compatible'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** Formats `generate_file` can write. */
export const GENERATE_FILE_FORMATS = ['csv', 'md', 'txt', 'json', 'html', 'svg'] as const;
export type GenerateFileFormat = (typeof GENERATE_FILE_FORMATS)[number];

/**
 * The file types an assistant accepts from visitors unless told otherwise, and the ones the portal
 * offers as choices (an operator may list others through the CLI or the API).
 */
export const VISITOR_UPLOAD_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
] as const;

export interface AssistantModelSpec {
  provider: ModelProvider;
  /** The provider's model id (`gpt-4o-mini`, `claude-sonnet-4-5`, `llama3.2`); `demo` for scripted. */
  id: string;
  /** Required for `openai-compatible`; optional for `openai` / `anthropic` (a proxy or gateway). */
  baseUrl?: string;
}

/** A raw browser tool the assistant declares; a page supplies only the handler. */
export interface DeclaredBrowserTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One Sitemap route: `:name` is one path segment, a final `*` the rest of the path. */
export interface SitemapRouteView {
  path: string;
  title: string;
  description?: string;
}

export interface AssistantLimits {
  maxStepsPerTurn: number;
  interruptTimeoutMs: number;
  consensusTimeoutMs: number;
  messagesPerMinute: number;
  sessionTtlMs: number;
}

export interface GenerateFileSettings {
  enabled: boolean;
  formats: GenerateFileFormat[];
  maxBytes: number;
}

/** Files visitors deliver and the quotas every stored file counts against. */
export interface AssistantFilesSettings {
  /** Whether visitors may upload files at all (`generate_file` has its own switch). */
  enabled: boolean;
  maxFileBytes: number;
  maxConversationBytes: number;
  /** All of one visitor's files with this assistant, across conversations. */
  maxVisitorBytes: number;
  /** All files of this assistant. */
  maxAssistantBytes: number;
  /** Stored types (`image/png`, …) accepted from visitors. */
  allowedTypes: string[];
  /** How long a file is kept before the pruner removes its bytes. */
  retentionMs: number;
  /** A visitor's text or CSV attachment reaches the model inline up to this many bytes. */
  inlineTextMaxBytes: number;
  /**
   * Image attachments as image parts: `auto` for providers known to accept them (OpenAI,
   * Anthropic, the scripted model), `always` (a vision model behind an OpenAI-compatible server),
   * or `never`. Otherwise the model gets the descriptor.
   */
  modelImages: 'auto' | 'always' | 'never';
}

/** Whether a secret is stored. Its value never leaves the server. */
export interface SecretPresence {
  set: boolean;
}

export interface AssistantGrantEntry {
  collection: string;
  functions: CollectionFunction[];
}

/** `GET /api/owner/assistants/:id` and every write's answer. */
export interface AssistantView {
  id: string;
  name: string;
  /** Public: goes into the embed snippet. */
  publishableKey: string;
  instructions: string;
  model: AssistantModelSpec;
  allowedOrigins: string[];
  browserTools: DeclaredBrowserTool[];
  serverTools: {
    /** This account's catalog through an app connection (listed in Connected apps, provenance `assistant`). */
    account: { grant: AssistantGrantEntry[]; connectionId: string | null } | null;
    mcpServers: { name: string; url: string; token: SecretPresence }[];
    generateFile: GenerateFileSettings;
    /** Server tools (by the name the model sees) that wait for the visitor's decision first. */
    consensus: Record<string, ApprovalSeverity>;
  };
  sitemap: SitemapRouteView[];
  /** Links in the assistant's text that leave the page's origin are one click away (default false). */
  outsideLinks: boolean;
  files: AssistantFilesSettings;
  limits: AssistantLimits;
  secrets: { providerKey: SecretPresence; identitySecret: SecretPresence };
  createdAt: string;
  updatedAt: string;
}

/**
 * `POST /api/owner/assistants` (name required) and `PATCH /api/owner/assistants/:id` (every field
 * optional; a given top-level field replaces the stored one whole, lists included). A secret field
 * is a string to set or replace it, `null` to clear it, absent to keep it.
 */
export interface AssistantWrite {
  name?: string;
  instructions?: string;
  model?: { provider: ModelProvider; id?: string; baseUrl?: string };
  allowedOrigins?: string[];
  browserTools?: DeclaredBrowserTool[];
  serverTools?: {
    /** `null` removes the catalog access and revokes its app connection. */
    account?: { grant: AssistantGrantEntry[] } | null;
    /** The whole list; a server's `token` as for every secret (absent keeps the stored one, by name). */
    mcpServers?: { name: string; url: string; token?: string | null }[];
    generateFile?: Partial<GenerateFileSettings>;
    consensus?: Record<string, ApprovalSeverity>;
  };
  sitemap?: SitemapRouteView[];
  outsideLinks?: boolean;
  files?: Partial<AssistantFilesSettings>;
  limits?: Partial<AssistantLimits>;
  providerKey?: string | null;
  identitySecret?: string | null;
}

export interface AssistantListView {
  assistants: AssistantView[];
}

/** The outcome of a check that reaches another server: never an HTTP error for the check itself. */
export type CheckOutcome<T> = ({ ok: true } & T) | { ok: false; error: { code: string; message: string } };

/**
 * `POST /api/owner/assistants/test-connection` (`model` required) and
 * `POST /api/owner/assistants/:id/test-connection` (stored model and key unless given).
 */
export interface TestConnectionRequest {
  model?: AssistantModelSpec;
  providerKey?: string;
}

/** `label` is what users see for the model; the error message is plain text, capped, redacted. */
export type TestConnectionResult = CheckOutcome<{ label: string; scripted: boolean }>;

/** `POST /api/owner/assistants/:id/tools/preview`: drafts override the stored config for this answer only. */
export interface ToolsPreviewRequest {
  browserTools?: DeclaredBrowserTool[];
  sitemap?: SitemapRouteView[];
  consensus?: Record<string, ApprovalSeverity>;
  /** Raw tools the page registers handlers for; default: every declared tool and the built-ins. */
  pageTools?: string[];
  /** Connect to the external MCP servers to list their tools too (default false). */
  connectMcp?: boolean;
}

export interface PreviewTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** `browser`: runs on the page; `server`: runs on the hub. */
  kind: 'browser' | 'server' | 'intent';
  severity: ApprovalSeverity | null;
}

export interface ToolsPreviewResult {
  /** Exactly what the model is offered, in order (the turn runner's own `offeredTools`). */
  tools: PreviewTool[];
  /** Tools that would not be offered, and why (no handler on the page, a name taken, no Sitemap…). */
  notOffered: { name: string; reason: string }[];
  /** MCP servers that could not be listed (only with `connectMcp`). */
  mcpErrors: { server: string; message: string }[];
}

/** `POST /api/owner/assistants/:id/mcp-check`: a stored server by `name`, or a draft `url` (+ `token`). */
export interface McpCheckRequest {
  name?: string;
  url?: string;
  token?: string;
}

export type McpCheckResult = CheckOutcome<{ tools: { name: string; description: string }[] }>;

/** `POST /api/owner/assistants/:id/sitemap/test`: against the stored routes, or the draft `routes`. */
export interface SitemapTestRequest {
  path: string;
  routes?: SitemapRouteView[];
}

export type SitemapTestResult =
  | { allowed: true; route: SitemapRouteView }
  | { allowed: false; code: 'path_not_in_sitemap'; message: string };

/**
 * `POST /api/owner/assistants/:id/sitemap/import`: `url` (fetched by the server) or `xml` (an
 * uploaded file's text). Locs on `origin` become routes (default: the URL's origin, else the
 * assistant's first allowed origin). Nothing is saved: the portal merges and PATCHes `sitemap`.
 */
export interface SitemapImportRequest {
  url?: string;
  xml?: string;
  origin?: string;
}

export interface SitemapImportResult {
  routes: SitemapRouteView[];
  origin: string;
}

/** `GET /api/owner/assistants/:id/embed`: everything to paste, as data. */
export interface EmbedView {
  publishableKey: string;
  hubUrl: string;
  /** The command-queue snippet and the `<script async>` tag, ready to paste. */
  snippet: string;
  /** The ES module import, ready to paste. */
  esm: string;
  /**
   * For a page whose Content Security Policy allows no inline script: the `<script async>` tag that
   * starts the kit from its `data-*`, the page's tools going in a file of its own.
   */
  strictSnippet: string;
  /** The policy such a page needs (docs/kit.md): the hub's origin for scripts and calls, Trusted Types. */
  strictPolicy: string;
  scriptUrl: string;
  moduleUrl: string;
  /** The hub's live preview page for this assistant (owner session required). */
  previewUrl: string;
}

export type ConversationStatus = TurnStatus | 'idle';

export interface ConversationRowView {
  id: string;
  title: string;
  visitorId: string;
  createdAt: string;
  updatedAt: string;
  turns: number;
  /** The latest turn's status; `idle` before the first turn. */
  status: ConversationStatus;
  toolCalls: number;
  /** Distinct tool names called, in first-call order. */
  toolsCalled: string[];
  files: number;
}

/** `GET /api/owner/assistants/:id/conversations?limit=&cursor=` (newest first). */
export interface ConversationPage {
  conversations: ConversationRowView[];
  nextCursor: string | null;
}

export type TranscriptMessage = ConversationMessage & { turnId: string | null };

export interface TranscriptToolCall {
  id: string;
  tool: string;
  /** `refused`: the model called a tool that was not offered (never ran). */
  kind: 'server' | 'browser' | 'intent' | 'refused';
  status: 'ready' | 'running' | 'interrupt' | 'consensus' | 'done';
  severity: ApprovalSeverity | null;
  /** The arguments that ran (after an Edit: the visitor's). */
  args: Record<string, unknown>;
  createdAt: string;
  resolvedAt: string | null;
  /** Browser tools and intents: the page's interrupt. */
  interrupt: {
    state: 'pending' | 'answered' | 'timed_out' | 'cancelled';
    decision?: IntentDecisionReport;
  } | null;
  /** Server tools with a Consensus severity. */
  consensus: {
    state: 'pending' | 'decided' | 'timed_out' | 'cancelled';
    decision?: ConsensusOutcome;
    /** Edit only: what the model proposed, and the names of the arguments the visitor changed. */
    proposedArgs?: Record<string, unknown>;
    changed?: string[];
    reason?: string;
  } | null;
  /** What the model read back, as text (capped); null while it has not run. */
  result: { ok: boolean; text: string } | null;
  files: FileDescriptor[];
}

export interface TranscriptTurn {
  id: string;
  status: TurnStatus;
  error: { code: string; message: string } | null;
  createdAt: string;
  updatedAt: string;
  toolCalls: TranscriptToolCall[];
}

/** `GET /api/owner/assistants/:id/conversations/:conversationId`. Model and tool text is text. */
export interface TranscriptView {
  conversation: ConversationRowView;
  messages: TranscriptMessage[];
  turns: TranscriptTurn[];
}

/** `DELETE /api/owner/assistants/:id/conversations/:conversationId`. */
export interface ConversationDeletion {
  id: string;
  deleted: true;
  filesDeleted: number;
}

/** `GET /api/owner/assistants/:id/usage?days=` (UTC days, oldest first, every day present). */
export interface AssistantUsageView {
  from: string;
  to: string;
  days: {
    day: string;
    turns: number;
    toolCalls: number;
    inputTokens: number;
    outputTokens: number;
  }[];
  /** Failed turns and failed tool calls of the period, by error code, most frequent first. */
  errors: { code: string; count: number }[];
}

/** `DELETE /api/owner/assistants/:id`. */
export interface AssistantDeletion {
  id: string;
  deleted: true;
}
