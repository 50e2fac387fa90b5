import { DioscError, ERROR_CODES, type ErrorCode, type WireError } from '@diosc/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { drainUnreadBody } from './unread-body.js';

/**
 * Every HTTP refusal is `{ error: { code, message, retryable } }` JSON with the code's status and
 * `Cache-Control: no-store` — including Fastify's own errors (bad JSON, body too large, an unknown
 * route, a malformed or over-long path segment). Never HTML, never a stack, never the path echoed.
 * (Refusals before Fastify has a request — malformed HTTP, timeouts — are `client-errors.ts`'s.)
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(sendError);
  app.setNotFoundHandler((_request, reply) => {
    reply
      .status(404)
      .header('cache-control', 'no-store')
      .send({
        error: {
          code: 'not_found',
          message: 'There is no such endpoint.',
          retryable: false,
        } satisfies WireError,
      });
  });
}

/**
 * Answers one refusal as `{ error }` JSON with its status, `Retry-After` when the code has a retry
 * hint, and `no-store`; an unexpected fault is logged here, and goes out as plain `internal`. A
 * refusal of a request whose body is still arriving drains it, so the client can read the answer.
 */
export function sendError(
  error: FastifyError | DioscError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const wire = toWireError(error);
  if (!request.raw.complete) {
    // Fastify closes the connection after a body over the limit; drained, it can stay open.
    if (wire.code === 'too_large') reply.removeHeader('connection');
    drainUnreadBody(request.raw, request.server.diosc.http.unreadBodyDrain);
  }
  if (wire.code === 'internal') request.log.error({ err: error }, 'unhandled error');
  if (wire.retryAfterMs !== undefined) reply.header('retry-after', Math.ceil(wire.retryAfterMs / 1000));
  reply.header('cache-control', 'no-store').status(ERROR_CODES[wire.code].status).send({ error: wire });
}

/** Fastify's own error codes that mean something more precise than "malformed". */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_MAX_PARAM_LENGTH: 'uri_too_long',
};

/** The remaining Fastify statuses, by what they mean. */
const STATUSES: Record<number, ErrorCode> = {
  408: 'request_timeout',
  413: 'too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
  503: 'busy',
};

export function toWireError(error: unknown): WireError {
  if (DioscError.isInstance(error)) return error.toWire();
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode ?? 500;
  const code = FASTIFY_CODES[fastifyError.code ?? ''] ?? STATUSES[status];
  if (code) return new DioscError(code).toWire();
  if (status >= 400 && status < 500) {
    return new DioscError('invalid_input', 'The request is malformed.').toWire();
  }
  return new DioscError('internal').toWire();
}
