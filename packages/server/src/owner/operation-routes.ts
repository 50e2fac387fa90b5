import { DioscError } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import type { CallerContext } from '../account/caller.js';
import { ownerOf } from '../auth/owner-request.js';
import { collectionOf } from '../usage/usage-log.js';

/**
 * POST /operations/:name — the portal UI's own calls: the account core with the owner's full
 * authority. Same validation, receipts and replay rules as every other transport.
 */
export function registerOperationRoutes(app: FastifyInstance): void {
  const { core, usage, clock } = app.diosc;
  app.post<{ Params: { name: string } }>('/operations/:name', async (request) => {
    const owner = ownerOf(request);
    const input = request.body === undefined ? {} : request.body;
    const caller: CallerContext = {
      accountId: owner.accountId,
      actor: `owner:${owner.accountId}`,
      via: 'owner',
      grant: { kind: 'all' },
    };
    const started = clock.now();
    let outcome = 'ok';
    try {
      const { result, replayed } = await core.execute(request.params.name, input, caller);
      if (replayed) outcome = 'replayed';
      return { result, replayed };
    } catch (error) {
      outcome = DioscError.isInstance(error) ? error.code : 'internal';
      throw error;
    } finally {
      await usage.record({
        accountId: owner.accountId,
        connectionId: null,
        transport: 'owner',
        requestId: requestIdOf(input),
        tool: request.params.name.slice(0, 64),
        collection: collectionOf(input),
        outcome,
        durationMs: clock.now() - started,
      });
    }
  });
}

export function requestIdOf(input: unknown): string | null {
  const value = (input as { requestId?: unknown } | null)?.requestId;
  return typeof value === 'string' ? value.slice(0, 128) : null;
}
