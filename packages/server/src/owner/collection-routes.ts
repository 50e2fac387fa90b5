import type { SourceDisconnection } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../auth/owner-request.js';

/**
 * DELETE /collections/:id/source — the owner disconnects the provider source of an external
 * collection (the portal asks for confirmation first). The account core does it; every transport
 * then answers `source_revoked` for that collection. Idempotent; there is no reconnect.
 */
export function registerCollectionRoutes(app: FastifyInstance): void {
  app.delete<{ Params: { id: string } }>('/collections/:id/source', async (request) => {
    const owner = ownerOf(request);
    const done = await app.diosc.core.disconnectSource(owner.accountId, request.params.id);
    return done satisfies SourceDisconnection;
  });
}
