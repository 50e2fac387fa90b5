import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { AssistantUsageView, TestConnectionResult } from '@diosc/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Telemetry } from '../observability/telemetry.js';
import type { Tracing } from '../observability/tracing.js';
import type { AssistantConfig } from './assistants/assistant-config.js';
import type { AssistantRecord, Assistants } from './assistants/assistants.js';
import type { HubSignals } from './cluster/hub-signal.js';
import type { ConversationAdmin } from './conversations/conversation-admin.js';
import type { ConversationHistory } from './conversations/conversation-history.js';
import type { EventBus } from './events/event-bus.js';
import type { EventLog } from './events/event-log.js';
import type { HubFiles } from './files/hub-files.js';
import type { HubHold } from './hub-hold.js';
import type { ModelSpec } from './model/model-spec.js';
import type { GuardedFetch } from './outbound/guarded-fetch.js';
import type { SecretRedactor } from './outbound/secret-redactor.js';
import type { ServerTool, ServerToolSet } from './server-tools/server-tool.js';
import type { Conversations } from './store/conversations.js';
import type { ToolCalls } from './store/tool-calls.js';
import type { Turns } from './store/turns.js';
import type { ModelUsage } from './usage/model-usage.js';
import type { VisitorSessions } from './visitors/visitor-sessions.js';

/** The stores a step writes together in one transaction. */
export interface HubTransaction {
  conversations: Conversations;
  toolCalls: ToolCalls;
  turns: Turns;
  /** Appends in the transaction; streams hear of them once it commits. */
  events: EventLog;
}

/** Everything the hub's parts share, built once per app (`hub-context.ts`); never a module global. */
export interface HubServices extends Omit<HubTransaction, 'events'> {
  clock: Clock;
  log: FastifyBaseLogger;
  /** Token counts of each model step (the owner's usage view), written in batches after the step. */
  modelUsage: ModelUsage;
  /** The app's metrics (a no-op when they are off). */
  telemetry: Telemetry;
  /** The app's spans (a no-op when traces are off). */
  tracing: Tracing;
  assistants: Assistants;
  visitors: VisitorSessions;
  events: EventLog;
  bus: EventBus;
  /** Hints to and from the other instances over the same store (PostgreSQL `NOTIFY`). */
  signals: HubSignals;
  /** How often the log watch looks for appends nobody announced (lost signals), for all streams. */
  eventPollMs: number;
  turnLeaseMs: number;
  hold?: HubHold;
  /** Each conversation's messages as a step reads them: kept in memory, read from the store past the last. */
  history: ConversationHistory;
  /** The owner's read model of conversations (list, transcript). */
  conversationAdmin: ConversationAdmin;
  /** Stored files: uploads, `generate_file`'s output, attachments for the prompt. */
  files: HubFiles;
  /**
   * Runs `work` in one transaction and announces its events after the commit. A race lost on a
   * primary key (two appenders took the same event or message number) runs the whole of it again,
   * so `work` writes only through `tx`.
   */
  transaction<T>(work: (tx: HubTransaction) => Promise<T>): Promise<T>;
  /** One tiny call to a model with the given key (or the environment's): the owner's "test connection". */
  testModel(spec: ModelSpec, apiKey: string | undefined): Promise<TestConnectionResult>;
  modelFor(assistant: AssistantRecord): Promise<{ model: LanguageModelV3; label: string; scripted: boolean }>;
  /** A model step's model and redactor, from one read of the assistant's secrets. */
  stepModelFor(assistant: AssistantRecord): Promise<{ model: LanguageModelV3; redactor: SecretRedactor }>;
  /** The assistant's server tools for one turn (MCP servers are listed once per turn and cached). */
  serverToolsFor(assistant: AssistantRecord, turnId: string): Promise<ServerTool[]>;
  /**
   * The assistant's server tools outside a turn (the owner's tools preview): the same loader a turn
   * uses; external MCP servers are connected only with `mcp`. The caller closes the set.
   */
  serverToolSetFor(assistant: AssistantRecord, options: { mcp: boolean }): Promise<ServerToolSet>;
  /**
   * The fetch for URLs an owner typed (sitemap import, MCP check, MCP servers at turn time, an
   * assistant's model base URL): public addresses only by default, each connection checked.
   */
  outboundFetch: GuardedFetch;
  /** The seam for text from outside: removes every secret the hub holds for this assistant. */
  redactorFor(assistant: AssistantRecord): Promise<SecretRedactor>;
  /** Closes the turn's MCP clients once it has ended. */
  releaseServerTools(turnId: string): Promise<void>;
  describeSitemap(routes: AssistantConfig['sitemap']): string;
  checkPath(routes: AssistantConfig['sitemap'], path: string): { ok: true } | { ok: false; message: string };
  /** An assistant's usage over the last `days` UTC days (today included). */
  usageOf(assistantId: string, days: number): Promise<AssistantUsageView>;
  /** Called when a turn's runner goes idle (tests and benchmarks wait on it). */
  onIdle?: () => void;
}
