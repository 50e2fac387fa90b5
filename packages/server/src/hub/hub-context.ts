import { join } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { FastifyBaseLogger } from 'fastify';
import type { DioscContext } from '../context.js';
import { createSecretBox, loadSecretKey } from '../secrets/secret-box.js';
import type { Store } from '../store/dialect.js';
import { createAssistants } from './assistants/assistants.js';
import { createConversations } from './conversations/conversations.js';
import { createEventBus } from './events/event-bus.js';
import { createEventLog } from './events/event-log.js';
import { generateFileTool } from './files/generate-file-tool.js';
import { createHubFiles } from './files/hub-files.js';
import type { HubServices, HubTransaction } from './hub-services.js';
import { resolveModel } from './model/resolve-model.js';
import { accountCatalogTools } from './server-tools/account-catalog.js';
import type { ServerTool } from './server-tools/server-tool.js';
import { checkNavigationPath } from './sitemap/sitemap.js';
import { describeSitemap } from './sitemap/system-prompt.js';
import { createToolCalls } from './turns/tool-calls.js';
import { createTurns } from './turns/turns.js';
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
  /** More server tools per assistant (tests, embedders). */
  extraServerTools?: (assistantId: string) => ServerTool[];
  onIdle?: () => void;
}

function transactionOf(db: Store['db'], clock: DioscContext['clock']): HubTransaction {
  return {
    conversations: createConversations(db, clock),
    toolCalls: createToolCalls(db, clock),
    turns: createTurns(db, clock),
  };
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
  const env = options.env ?? process.env;
  const toolCache = new Map<string, ServerTool[]>();
  const assistants = createAssistants(store.db, clock, box);
  const files = createHubFiles(store.db, clock);
  return {
    ...transactionOf(store.db, clock),
    clock,
    log,
    assistants,
    visitors: createVisitorSessions(store.db, clock),
    events: createEventLog(store.db, clock, bus),
    bus,
    files,
    transaction: (work) => store.db.transaction().execute((trx) => work(transactionOf(trx, clock))),
    async modelFor(assistant) {
      const { providerKey } = await assistants.secretsOf(assistant.id);
      return resolveModel(assistant.config.model, {
        env,
        apiKey: providerKey,
        scripted: options.scriptedModels,
      });
    },
    async serverToolsFor(assistant, turnId) {
      const cached = toolCache.get(turnId);
      if (cached) return cached;
      const tools: ServerTool[] = [];
      const account = assistant.config.serverTools.account;
      if (account?.connectionId) {
        tools.push(...accountCatalogTools(diosc, assistant.accountId, account.connectionId, account.grant));
      }
      if (assistant.config.serverTools.generateFile?.enabled) tools.push(generateFileTool(files, assistant));
      tools.push(...(options.extraServerTools?.(assistant.id) ?? []));
      if (toolCache.size > 1_000) toolCache.clear();
      toolCache.set(turnId, tools);
      return tools;
    },
    describeSitemap,
    checkPath: (routes, path) => {
      const verdict = checkNavigationPath(routes, path);
      return verdict.ok ? { ok: true } : { ok: false, message: verdict.message };
    },
    onIdle: options.onIdle,
  };
}
