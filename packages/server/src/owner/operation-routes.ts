import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../auth/owner-request.js';
import { executeRecorded } from '../usage/recorded-call.js';

/**
 * POST /operations/:name — the portal UI's own calls: the account core with the owner's full
 * authority. Same validation, receipts and replay rules as every other transport.
 */
export function registerOperationRoutes(app: FastifyInstance): void {
  app.post<{ Params: { name: string } }>('/operations/:name', async (request) => {
    const owner = ownerOf(request);
    const input = request.body === undefined ? {} : request.body;
    const { result, replayed } = await executeRecorded(app.diosc, 'owner', request.params.name, input, {
      accountId: owner.accountId,
      actor: `owner:${owner.accountId}`,
      via: 'owner',
      grant: { kind: 'all' },
    });
    return { result, replayed };
  });
}
