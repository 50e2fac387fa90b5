import type { ServerResponse } from 'node:http';
import type { DioscError } from '@diosc/protocol';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../http/errors.js';
import { UnreadableBody } from '../http/json-body.js';
import { drainUnreadBody } from '../http/unread-body.js';

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

/**
 * Resolves when the response is closed — written, or its client gone — so a wait on an answer
 * nobody will read can end; a client gone before its answer was written also aborts `cancel`.
 * Resolves with whether that happened (the client left before its answer).
 */
export function whenClosed(response: ServerResponse, cancel: { abort(): void }): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    response.once('close', () => {
      const left = !response.writableFinished;
      if (left) cancel.abort();
      resolve(left);
    });
  });
}

/**
 * A body that is not one readable JSON text (or none at all where a message is needed): -32700;
 * valid JSON that is no message (`null`, a number): -32600, as JSON-RPC 2.0 §5.1 answers it.
 */
export function sendParseError(
  reply: FastifyReply,
  detail = 'Invalid JSON',
  rpcCode: -32700 | -32600 = -32700,
): void {
  const label = rpcCode === -32700 ? 'Parse error' : 'Invalid Request';
  reply
    .status(400)
    .header('cache-control', 'no-store')
    .send(jsonRpcError(rpcCode, `${label}: ${detail}`));
}

/**
 * `/mcp`'s refusals before the SDK: a body that is not readable JSON (malformed, empty, invalid
 * UTF-8, a byte-order mark, nested too deep) is a JSON-RPC parse error; everything else
 * (authentication, Host, Origin, rate limit, body size, media type) is the project's `{ error }`.
 */
export function mcpErrorHandler(
  error: FastifyError | DioscError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (UnreadableBody.is(error)) sendParseError(reply, error.message, error.rpcCode);
  else sendError(error, request, reply);
}

/**
 * Stateless: there is no stream to GET and no session to DELETE. Answered as an `onRequest` hook
 * of those routes, so the answer is the same whatever body came with the request (none is read).
 */
export async function notAllowed(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  drainUnreadBody(request.raw, request.server.diosc.http.unreadBodyDrain);
  return reply
    .status(405)
    .header('allow', 'POST')
    .header('cache-control', 'no-store')
    .send(
      jsonRpcError(-32000, 'Method not allowed: this endpoint is stateless; POST one message per request.'),
    );
}
