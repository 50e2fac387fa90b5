import { ProtocolError, ProtocolErrorCode, Server, type Tool } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import type { DioscContext } from '../context.js';
import type { UsageBatch } from '../usage/usage-batch.js';
import { callTool } from './call-tool.js';
import type { McpPrincipal } from './guard.js';
import type { InFlight } from './in-flight.js';
import type { RequestCancel } from './request-cancel.js';
import type { WireCatalog } from './wire-catalog.js';

export const SERVER_INFO = { name: 'diosc', version: '0.1.0' } as const;

export interface RequestServerDeps {
  diosc: DioscContext;
  log: FastifyBaseLogger;
  principal: McpPrincipal;
  catalog: WireCatalog;
  inFlight: InFlight;
  usage: UsageBatch;
  /**
   * This request's one cancellation (one message per request, so at most one call): aborted when
   * the HTTP client goes away before its answer was written, when the client cancels the call in a
   * POST of its own (through `inFlight`), or when the exchange failed (the plugin closes it then).
   */
  cancel: RequestCancel;
}

/**
 * A fresh low-level SDK server for one HTTP request and one principal. Nothing of it outlives the
 * request: a shared instance once leaked one client's responses to another (CVE-2026-25536).
 * The low-level `Server` lets `tools/list` answer with the catalog's own JSON untouched.
 */
export function createRequestServer(deps: RequestServerDeps): Server {
  const { principal, diosc } = deps;
  // Only what the call path uses: spreading the whole app context on every call is measurable.
  const callDeps = {
    core: diosc.core,
    connections: diosc.connections,
    clock: diosc.clock,
    usage: deps.usage,
    log: deps.log,
    telemetry: diosc.telemetry,
    tracing: diosc.tracing,
  };
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });

  server.setRequestHandler('tools/list', () => ({
    // The catalog's schemas are plain JSON Schema objects; the SDK's `Tool` type spells them narrower.
    tools: [...deps.catalog.list(principal.grant.exposed)] as unknown as Tool[],
  }));

  // The call runs under `deps.cancel`, not the SDK's own signal for the request: the SDK aborts
  // that only when its transport closes, which the plugin does only after setting `cancel` (client
  // gone, transport failed), or on a cancellation within the same exchange, which one message per
  // POST rules out. A listener on it would cost more than the rest of this handler.
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const untrack = deps.inFlight.track(principal.connectionId, ctx.mcpReq.id, deps.cancel);
    try {
      const outcome = await callTool(callDeps, principal, name, args ?? {}, deps.cancel);
      if (outcome.kind === 'unknown_tool') {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 128)}`);
      }
      return outcome.result;
    } finally {
      untrack();
    }
  });

  // In stateless HTTP the cancellation comes in its own POST; the registry finds the call it names.
  server.setNotificationHandler('notifications/cancelled', (notification) => {
    const requestId = notification.params?.requestId;
    if (requestId !== undefined) deps.inFlight.cancel(principal.connectionId, requestId);
  });

  return server;
}
