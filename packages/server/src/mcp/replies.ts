import type { DioscError } from '@diosc/protocol';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../http/errors.js';

/** A JSON-RPC error answer that belongs to no request (the request could not be read as one). */
export const jsonRpcError = (code: number, message: string) => ({
  jsonrpc: '2.0',
  id: null,
  error: { code, message },
});

export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Resolves when the client has gone away, so a wait on an answer nobody will read can end. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * `/mcp`'s refusals before the SDK: unreadable JSON is a JSON-RPC parse error; everything else
 * (authentication, Origin, rate limit, body size, media type) is the project's `{ error }` JSON.
 */
export function mcpErrorHandler(
  error: FastifyError | DioscError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const code = (error as FastifyError).code;
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    reply
      .status(400)
      .header('cache-control', 'no-store')
      .send(jsonRpcError(-32700, 'Parse error: Invalid JSON'));
    return;
  }
  sendError(error, request, reply);
}

/** Stateless: there is no stream to GET and no session to DELETE. */
export async function notAllowed(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply
    .status(405)
    .header('allow', 'POST')
    .header('cache-control', 'no-store')
    .send(
      jsonRpcError(-32000, 'Method not allowed: this endpoint is stateless; POST one message per request.'),
    );
}
