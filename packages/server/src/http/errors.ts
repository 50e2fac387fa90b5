import { DioscError, type WireError } from '@diosc/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Every HTTP refusal is `{ error: { code, message, retryable } }` JSON with the code's status —
 * including Fastify's own errors (bad JSON, body too large, unknown route). Never HTML, never a stack.
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
 * hint, and `no-store`; an unexpected fault is logged here, and goes out as plain `internal`.
 */
export function sendError(
  error: FastifyError | DioscError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const wire = toWireError(error);
  if (wire.code === 'internal') request.log.error({ err: error }, 'unhandled error');
  if (wire.retryAfterMs !== undefined) reply.header('retry-after', Math.ceil(wire.retryAfterMs / 1000));
  reply.header('cache-control', 'no-store').status(statusOf(error, wire)).send({ error: wire });
}

function statusOf(error: FastifyError | DioscError, wire: WireError): number {
  if (DioscError.isInstance(error)) return error.status;
  return wire.code === 'internal' ? 500 : ((error as FastifyError).statusCode ?? 400);
}

export function toWireError(error: unknown): WireError {
  if (DioscError.isInstance(error)) return error.toWire();
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode ?? 500;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413)
    return new DioscError('too_large').toWire();
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
    return new DioscError('unsupported_media_type').toWire();
  }
  if (status === 429) return new DioscError('rate_limited').toWire();
  if (status >= 400 && status < 500) {
    return new DioscError('invalid_input', 'The request body is not valid JSON or is malformed.').toWire();
  }
  return new DioscError('internal').toWire();
}
