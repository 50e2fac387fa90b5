import { CALL_CHANNELS, type CallChannel, DioscError } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../auth/owner-request.js';

/** GET /activity?transport=&limit= — the usage record: identifiers and outcomes, never arguments. */
export function registerActivityRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: { transport?: string; limit?: string } }>('/activity', async (request) => {
    const owner = ownerOf(request);
    const { transport, limit } = request.query;
    if (transport !== undefined && !(CALL_CHANNELS as readonly string[]).includes(transport)) {
      throw new DioscError('invalid_input', `transport must be one of ${CALL_CHANNELS.join(', ')}.`);
    }
    const count = limit === undefined ? undefined : Number(limit);
    if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > 200)) {
      throw new DioscError('invalid_input', 'limit must be an integer from 1 to 200.');
    }
    return {
      entries: await app.diosc.usage.list(owner.accountId, {
        transport: transport as CallChannel | undefined,
        limit: count,
      }),
    };
  });
}
