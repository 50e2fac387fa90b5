import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { FastifyBaseLogger } from 'fastify';
import type { DioscContext } from '../context.js';
import { createSecretBox, loadSecretKey } from '../secrets/secret-box.js';
import type { Store } from '../store/dialect.js';
import { isUniqueViolation } from '../store/store-errors.js';
import type { AssistantSecrets } from './assistants/assistant-config.js';
import { type AssistantRecord, createAssistants } from './assistants/assistants.js';
import { localSignals } from './cluster/hub-signal.js';
import { createPgSignals } from './cluster/pg-signals.js';
import { createConversationAdmin } from './conversations/conversation-admin.js';
import { createConversationHistory } from './conversations/conversation-history.js';
import { createEventBus } from './events/event-bus.js';
import { createEventLog } from './events/event-log.js';
import { generateFileTool } from './files/generate-file-tool.js';
import { createHubFiles } from './files/hub-files.js';
import type { HubHold } from './hub-hold.js';
import type { HubServices } from './hub-services.js';
import { resolveModel } from './model/resolve-model.js';
import { testModelConnection } from './model/test-connection.js';
import { createGuardedFetch, type GuardedFetch, type OutboundPolicy } from './outbound/guarded-fetch.js';
import {
  assistantSecretValues,
  createSecretRedactor,
  type SecretRedactor,
} from './outbound/secret-redactor.js';
import { accountCatalogTools } from './server-tools/account-catalog.js';
import { connectMcpServers } from './server-tools/mcp-server-tools.js';
import type { ServerTool, ServerToolSet } from './server-tools/server-tool.js';
import { checkNavigationPath } from './sitemap/sitemap.js';
import { describeSitemap } from './sitemap/system-prompt.js';
import { createConversations, type StoredMessage } from './store/conversations.js';
import { createToolCalls } from './store/tool-calls.js';
import { createTurns } from './store/turns.js';
import { assistantUsage } from './usage/assistant-usage.js';
import { createModelUsage } from './usage/model-usage.js';
import { createVisitorSessions } from './visitors/visitor-sessions.js';

export interface HubOptions {
  /** Scripted models by id, for `model: { provider: 'scripted', id }` (tests, demos). */
  scriptedModels?: Record<string, LanguageModelV3>;
  /** Where provider keys and model settings are read (default: process.env). */
  env?: Record<string, string | undefined>;
  /** How often overdue interrupts are closed (default 1 s). */
  sweepIntervalMs?: number;
  /** How often expired files lose their bytes (default hourly). */
  filePruneIntervalMs?: number;
  /**
   * Let owner-given URLs (sitemap import, MCP servers at check and turn time, an assistant's model
   * base URL) reach loopback and private addresses; default from `DIOSC_HUB_FETCH_PRIVATE=1` in
   * `env`, else off. Tests on loopback turn it on.
   */
  fetchPrivate?: boolean;
  /** Test seam: the outbound guard's resolver and its idea of a public address (DNS rebinding tests). */
  outbound?: Pick<OutboundPolicy, 'lookup' | 'isPublic'>;
  /** More server tools per assistant (tests, embedders). */
  extraServerTools?: (assistantId: string) => ServerTool[];
  onIdle?: () => void;
  /** How long a runner holds a turn's lease between renewals (default 60 s; crash tests shorten it). */
  turnLeaseMs?: number;
  /**
   * How often the log watch looks for events no signal announced, for all open streams at once
   * (default 2 s on SQLite, where a look with no commit since the last reads nothing; on
   * PostgreSQL, where other instances' appends arrive by `NOTIFY`, 10 s, only for lost signals).
   */
  eventPollMs?: number;
  /** How long a step's token counts wait to be written with others (default 50 ms). */
  modelUsageFlushMs?: number;
  /** Test seam: stops the hub at named points (see `HubHold`); production passes none. */
  hold?: HubHold;
  /** Test seam: drops arriving cross-instance signals it returns true for (a lost `NOTIFY`). */
  dropSignal?: Parameters<typeof createPgSignals>[0]['dropIncoming'];
}

const DEFAULT_TURN_LEASE_MS = 60_000;
const POLL_MS = { local: 2_000, notify: 10_000 } as const;

function storesOf(
  db: Store['db'],
  clock: DioscContext['clock'],
  audit: DioscContext['audit'],
  appended: (conversationId: string, message: StoredMessage) => void,
) {
  return {
    conversations: createConversations(db, clock, appended),
    toolCalls: createToolCalls(db, clock, audit),
    turns: createTurns(db, clock),
  };
}

/** How many times a transaction that lost a numbering race runs again before the error stands. */
const TRANSACTION_ATTEMPTS = 8;

/**
 * The assistant's server tools for one turn: its account catalog (no network), its external MCP
 * servers (listed once per turn run, the clients kept until the turn ends) and any extras.
 */
async function loadServerToolsFor(
  diosc: DioscContext,
  log: FastifyBaseLogger,
  assistant: AssistantRecord,
  secrets: AssistantSecrets,
  outbound: { fetch: GuardedFetch; redactor: SecretRedactor },
  extra: ServerTool[],
  mcp = true,
): Promise<ServerToolSet> {
  const tools: ServerTool[] = [];
  const account = assistant.config.serverTools.account;
  if (account?.connectionId) {
    tools.push(...accountCatalogTools(diosc, log, assistant.accountId, account.connectionId, account.grant));
  }
  const servers = mcp ? assistant.config.serverTools.mcpServers : [];
  const connected = await connectMcpServers(servers, secrets.mcpTokens ?? {}, log, outbound);
  tools.push(...connected.tools, ...extra);
  return { tools, failures: connected.failures ?? [], close: connected.close };
}

/** Builds the hub's services over the app's store and account core; one set per app. */
export function createHubServices(
  diosc: DioscContext,
  log: FastifyBaseLogger,
  options: HubOptions,
): HubServices {
  const { store, clock, config } = diosc;
  const box = createSecretBox(loadSecretKey(config.secretKey, join(config.dataDir, 'secret.key')));
  const bus = createEventBus();
  const instance = `hub_${randomUUID()}`;
  // Several instances share one PostgreSQL; SQLite is one process's store, so nobody is told.
  const signals =
    store.dialect === 'postgres' && config.databaseUrl
      ? createPgSignals({
          databaseUrl: config.databaseUrl,
          db: store.db,
          instance,
          log,
          dropIncoming: options.dropSignal,
        })
      : localSignals(instance);
  const env = options.env ?? process.env;
  const toolCache = new Map<string, Promise<ServerToolSet>>();
  const assistants = createAssistants(store.db, clock, box, options.scriptedModels);
  const files = createHubFiles(store.db, clock, options.hold, diosc.telemetry);
  const outboundFetch = createGuardedFetch({
    allowPrivate: options.fetchPrivate ?? env.DIOSC_HUB_FETCH_PRIVATE === '1',
    ...options.outbound,
  });
  const redactorOf = (secrets: AssistantSecrets) => createSecretRedactor(assistantSecretValues(secrets, env));
  // A base URL the owner typed is reached through the guard; the providers' own and the
  // operator's (`DIOSC_OLLAMA_URL`, the `auto` provider) are not the owner's to choose.
  const providerFetch = (spec: { baseUrl?: string | undefined }) =>
    spec.baseUrl === undefined ? undefined : (outboundFetch as unknown as typeof fetch);
  const modelOf = (assistant: AssistantRecord, apiKey: string | undefined) =>
    resolveModel(assistant.config.model, {
      env,
      apiKey,
      scripted: options.scriptedModels,
      fetch: providerFetch(assistant.config.model),
    });
  const loadServerTools = async (assistant: AssistantRecord, mcp = true) => {
    const secrets = await assistants.secretsOf(assistant.id);
    return loadServerToolsFor(
      diosc,
      log,
      assistant,
      secrets,
      { fetch: outboundFetch, redactor: redactorOf(secrets) },
      [
        ...(assistant.config.serverTools.generateFile?.enabled ? [generateFileTool(files, assistant)] : []),
        ...(options.extraServerTools?.(assistant.id) ?? []),
      ],
      mcp,
    );
  };
  // A message appended outside a transaction is committed at once; in one, when it commits.
  const base = storesOf(store.db, clock, diosc.audit, (id, message) => history.appended(id, message));
  const history = createConversationHistory(base.conversations);
  const modelUsage = createModelUsage(store.db, clock, {
    onError: (error, rows) => log.error({ err: error, rows }, 'model usage rows not written'),
    flushMs: options.modelUsageFlushMs,
  });
  return {
    ...base,
    history,
    conversationAdmin: createConversationAdmin(store.db, base.conversations),
    modelUsage,
    async usageOf(assistantId, days) {
      await modelUsage.flush();
      return assistantUsage(store.db, assistantId, days, clock.now());
    },
    clock,
    log,
    telemetry: diosc.telemetry,
    tracing: diosc.tracing,
    assistants,
    visitors: createVisitorSessions(store.db, clock),
    events: createEventLog(store.db, clock, bus, signals),
    bus,
    signals,
    eventPollMs: options.eventPollMs ?? POLL_MS[signals.mode],
    turnLeaseMs: options.turnLeaseMs ?? DEFAULT_TURN_LEASE_MS,
    hold: options.hold,
    files,
    async transaction(work) {
      for (let attempt = 1; ; attempt++) {
        const wakes: (() => void)[] = [];
        try {
          const result = await store.db.transaction().execute((trx) =>
            work({
              ...storesOf(trx, clock, diosc.audit, (id, message) =>
                wakes.push(() => history.appended(id, message)),
              ),
              events: createEventLog(trx, clock, bus, signals, (wake) => wakes.push(wake)),
            }),
          );
          for (const wake of wakes) wake();
          return result;
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= TRANSACTION_ATTEMPTS) throw error;
        }
      }
    },
    testModel: (spec, apiKey) =>
      testModelConnection(spec, {
        env,
        apiKey,
        scripted: options.scriptedModels,
        fetch: providerFetch(spec),
      }),
    async modelFor(assistant) {
      const { providerKey } = await assistants.secretsOf(assistant.id);
      return modelOf(assistant, providerKey);
    },
    async stepModelFor(assistant) {
      const secrets = await assistants.secretsOf(assistant);
      return { model: (await modelOf(assistant, secrets.providerKey)).model, redactor: redactorOf(secrets) };
    },
    redactorFor: async (assistant) => redactorOf(await assistants.secretsOf(assistant.id)),
    async serverToolsFor(assistant, turnId) {
      let set = toolCache.get(turnId);
      if (!set) {
        set = loadServerTools(assistant);
        toolCache.set(turnId, set);
      }
      return (await set).tools;
    },
    serverToolSetFor: (assistant, { mcp }) => loadServerTools(assistant, mcp),
    outboundFetch,
    async releaseServerTools(turnId) {
      const set = toolCache.get(turnId);
      toolCache.delete(turnId);
      await (await set)?.close();
    },
    describeSitemap,
    checkPath: (routes, path) => {
      const verdict = checkNavigationPath(routes, path);
      return verdict.ok ? { ok: true } : { ok: false, message: verdict.message };
    },
    onIdle: options.onIdle,
  };
}
