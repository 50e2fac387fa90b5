import type { IncomingMessage } from 'node:http';
import { CONTENT_MAX_CHARS } from '@diosc/protocol';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { type AuthInfo, classifyInboundRequest, createMcpHandler } from '@modelcontextprotocol/server';
import type { FastifyPluginAsync } from 'fastify';
import { createPerMinuteLimit } from '../limits/per-minute-limit.js';
import { plainlyLegacy } from './era.js';
import { createMcpGuard } from './guard.js';
import { createInFlight } from './in-flight.js';
import { header, jsonRpcError, mcpErrorHandler, notAllowed, sendParseError, whenClosed } from './replies.js';
import { RequestCancel } from './request-cancel.js';
import { createRequestServer, type RequestServerDeps } from './request-server.js';
import { createWireCatalog } from './wire-catalog.js';

/** Room for the largest item_write (every content character at 4 UTF-8 bytes) plus its envelope. */
export const MCP_BODY_LIMIT = CONTENT_MAX_CHARS * 4 + 64 * 1024;

/**
 * HTTP MCP at `/mcp`: Streamable HTTP, stateless, one fresh SDK server and transport per request.
 * Every request is checked (URL credentials, Origin, bearer token) before its body is even parsed,
 * then rate-limited per connection, and only then handed to the SDK.
 */
export const mcpPlugin: FastifyPluginAsync = async (app) => {
  const diosc = app.diosc;
  const catalog = createWireCatalog();
  const inFlight = createInFlight();
  const usage = diosc.usage.batch;
  app.addHook('onClose', () => usage.flush());

  // Requests of the 2026-07-28 revision (per-request envelope) go to the SDK's serving entry, which
  // still builds a fresh server per request from this factory; the request's verified principal
  // rides in the pass-through `authInfo` (never the token itself).
  const modern = createMcpHandler(
    (context) => {
      const deps = (context.authInfo?.extra as { deps?: RequestServerDeps } | undefined)?.deps;
      if (!deps) throw new Error('An /mcp request reached the SDK without its verified principal.');
      return createRequestServer(deps);
    },
    { legacy: 'reject', maxRequestBodySize: MCP_BODY_LIMIT },
  );
  const serveModern = toNodeHandler(modern, { maxRequestBodySize: MCP_BODY_LIMIT });
  app.addHook('onClose', () => modern.close());

  app.decorateRequest('mcpPrincipal', null);
  // Per connection, after authentication; the key is the connection ID, never the token. Each tool
  // call may come with a few protocol requests (initialize, tools/list, notifications).
  const requests = createPerMinuteLimit(
    diosc.core.limits.callsPerMinutePerCaller * 2,
    diosc.clock,
    'Too many requests on this connection; slow down.',
  );
  app.addHook(
    'onRequest',
    createMcpGuard({
      config: diosc.config,
      connections: diosc.connections,
      requests,
      ...(diosc.store.dataVersion && { dataVersion: diosc.store.dataVersion }),
    }),
  );

  app.setErrorHandler(mcpErrorHandler);
  // Every other method is 405 before its body (if any) is looked at; HEAD comes with GET.
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: '/mcp',
    onRequest: notAllowed,
    handler: notAllowed,
  });

  app.post('/mcp', { bodyLimit: MCP_BODY_LIMIT }, async (request, reply) => {
    if (request.body === undefined) {
      sendParseError(reply, 'the body is empty; send one JSON-RPC message');
      return;
    }
    // One message per request: the grant read by the guard is then the grant of this very call.
    if (Array.isArray(request.body)) {
      reply
        .status(400)
        .header('cache-control', 'no-store')
        .send(
          jsonRpcError(-32600, 'Invalid Request: batches are not supported; send one message per request.'),
        );
      return;
    }
    const cancel = new RequestCancel();
    const deps: RequestServerDeps = {
      diosc,
      log: request.log,
      principal: request.mcpPrincipal!,
      catalog,
      inFlight,
      usage,
      cancel,
    };
    const protocolVersionHeader = header(request, 'mcp-protocol-version');
    const modernEra =
      !plainlyLegacy(request.body, protocolVersionHeader) &&
      classifyInboundRequest({
        httpMethod: 'POST',
        body: request.body,
        protocolVersionHeader,
        mcpMethodHeader: header(request, 'mcp-method'),
        mcpNameHeader: header(request, 'mcp-name'),
      }).kind !== 'legacy';
    if (modernEra) {
      // Modern requests and the modern ladder's own rejections are the serving entry's to answer.
      const closed = whenClosed(reply.raw, cancel);
      const auth: AuthInfo = {
        token: 'verified-bearer',
        clientId: deps.principal.connectionId,
        scopes: [],
        extra: { deps },
      };
      (request.raw as IncomingMessage & { auth?: AuthInfo }).auth = auth;
      reply.hijack();
      reply.raw.setHeader('cache-control', 'no-store');
      await Promise.race([
        serveModern(request.raw, reply.raw, request.body).catch((error: unknown) => {
          cancel.abort();
          throw error;
        }),
        closed,
      ]);
      return;
    }

    const server = createRequestServer(deps);
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // Closed only when the client left before its answer: the call is cancelled then, and nothing
    // may write to the response. A finished exchange holds nothing to release (no stream, no
    // pending request, no timer; test/mcp/leftovers.test.ts) and closing it is a measurable share of
    // our own cost per call (the SDK builds an Error to settle what is already settled), so it is
    // left to the garbage collector.
    const closed = whenClosed(reply.raw, cancel).then((left) => {
      if (!left) return;
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    reply.hijack();
    reply.raw.setHeader('cache-control', 'no-store');
    try {
      // A closed transport never settles the answer of a call it dropped; the disconnect ends the wait.
      await Promise.race([transport.handleRequest(request.raw, reply.raw, request.body), closed]);
    } catch (error) {
      request.log.error({ err: error }, 'MCP transport failed');
      // A failed exchange may still hold a running handler: it is cancelled, and closing ends it.
      cancel.abort();
      void transport.close();
      void server.close();
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify(jsonRpcError(-32603, 'Internal error')));
      }
    }
  });
};
