import type { FastifyInstance } from 'fastify';
import type { BuildAppOptions } from '../app.js';
import type { HttpLimits } from '../http/server-limits.js';
import { createAssistant } from '../hub/assistant-admin/assistant-admin.js';
import type { AssistantRecord } from '../hub/assistants/assistants.js';
import type { HubOptions } from '../hub/hub-context.js';
import {
  createScriptedModel,
  type Script,
  type ScriptedModel,
} from '../hub/model/scripted/scripted-model.js';
import type { TestDialect } from './dialects.js';
import { type EventStream, HubClient } from './hub-client.js';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.js';
import { DIALECTS } from './test-store.js';

export interface HubTestServer extends TestServer {
  model: ScriptedModel;
  assistant: AssistantRecord;
  /** The origin the test assistant allows (a page that embeds the widget). */
  pageOrigin: string;
  client(origin?: string): HubClient;
  /** A new visitor: a session on the assistant (the test one by default), a fresh conversation, its event stream open. */
  visit(on?: AssistantRecord): Promise<{ client: HubClient; conversation: string; stream: EventStream }>;
  createAssistant(input: Record<string, unknown>): Promise<AssistantRecord>;
}

export const PAGE_ORIGIN = 'http://shop.localhost:4173';

/**
 * The whole server on loopback with one assistant on a scripted model, plus a Node client that
 * speaks the kit's protocol.
 */
export async function startHubServer(
  options: {
    script?: Script;
    assistant?: Record<string, unknown>;
    dialect?: TestDialect;
    hub?: HubOptions;
    configure?: (app: FastifyInstance) => void;
    /** false: the store's manual clock (`server.clock.advance`), for retention and expiry. */
    realClock?: boolean;
    /** Pino options for the app's logger (a `stream` captures its lines); silent by default. */
    logger?: TestServerOptions['logger'];
    /** Configuration over the test defaults (a built kit's `kitDir`, say). */
    config?: TestServerOptions['config'];
    /** HTTP limits over the defaults (the visitor caps, a short idle-stream bound). */
    http?: Partial<HttpLimits>;
    /** Where spans go (an in-memory exporter's processor): traces on for this server. */
    tracing?: BuildAppOptions['tracing'];
  } = {},
): Promise<HubTestServer> {
  const model = createScriptedModel(options.script ?? [{ text: 'Hello from the script.' }]);
  const server = await startTestServer({
    dialect: options.dialect ?? DIALECTS[0],
    realClock: options.realClock ?? true,
    configure: options.configure,
    config: options.config,
    logger: options.logger,
    app: {
      http: options.http,
      tracing: options.tracing,
      hub: {
        sweepIntervalMs: 50,
        ...options.hub,
        scriptedModels: { test: model, ...options.hub?.scriptedModels },
      },
    },
  });
  const create = (input: Record<string, unknown>) =>
    createAssistant(server.app.diosc, server.accountId, input);
  // The suites' assistant takes visitors' files (most of them exercise uploads); a new assistant's
  // own default is off, which its own tests hold.
  const assistant = await create({
    name: 'Test assistant',
    model: { provider: 'scripted', id: 'test' },
    allowedOrigins: [PAGE_ORIGIN],
    ...options.assistant,
    files: { enabled: true, ...(options.assistant?.files as object | undefined) },
  });
  return {
    ...server,
    model,
    assistant,
    pageOrigin: PAGE_ORIGIN,
    client: (origin = PAGE_ORIGIN) => new HubClient(server.url, origin),
    async visit(on = assistant) {
      const client = new HubClient(server.url, PAGE_ORIGIN);
      await client.open(on.publishableKey);
      const conversation = await client.conversation();
      const stream = client.stream(conversation);
      await stream.ready;
      return { client, conversation, stream };
    },
    createAssistant: create,
  };
}
