import { DioscError } from '@diosc/protocol';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Assistants } from '../assistants/assistants.js';

/**
 * The one budget of messages a visitor session has per minute (the assistant's
 * `limits.messagesPerMinute`), counted across every route that starts a turn — the kit's
 * `POST /conversations/:id/messages` and an AG-UI run alike. A limit set on each route would be one
 * budget per route (the rate-limit plugin keeps a store per route), so a visitor using both wires
 * would get twice the assistant's limit. Runs after authentication (a route's `preHandler`).
 */
export function visitorMessageLimit(
  app: FastifyInstance,
  hub: { assistants: Pick<Assistants, 'find'> },
): preHandlerAsyncHookHandler {
  const limiter = app.createRateLimit({
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `visitor-messages:${request.visitor?.id ?? 'none'}`,
    max: async (request: FastifyRequest) =>
      (await hub.assistants.find(request.visitor!.assistantId))?.config.limits.messagesPerMinute ?? 1,
  });
  return async (request) => {
    const limit = await limiter(request);
    if (!limit.isAllowed && limit.isExceeded)
      throw new DioscError('rate_limited', 'Too many messages; slow down.', { retryAfterMs: limit.ttl });
  };
}
