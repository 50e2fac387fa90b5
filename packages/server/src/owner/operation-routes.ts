import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../auth/owner-request.js';
import { runCall } from '../calls/run-call.js';

/**
 * POST /operations/:name — the portal UI's own calls: the account core with the owner's full
 * authority, through the one call path. Same validation, receipts and replay rules as every other
 * transport.
 */
export function registerOperationRoutes(app: FastifyInstance): void {
  app.post<{ Params: { name: string } }>('/operations/:name', async (request) => {
    const owner = ownerOf(request);
    const { result, replayed } = await runCall(
      { ...app.diosc, log: request.log },
      {
        name: request.params.name,
        input: request.body === undefined ? {} : request.body,
        caller: { channel: 'owner', accountId: owner.accountId },
      },
    );
    return { result, replayed };
  });
}
