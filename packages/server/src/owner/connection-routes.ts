import { DioscError } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import { ownerOf } from '../auth/owner-request.js';
import { bodyObject, optionalInteger, stringField } from './body.js';

const DAY_MS = 24 * 60 * 60_000;

/** Connected apps: the owner's HTTP MCP connections. A token appears in a response once, at birth. */
export function registerConnectionRoutes(app: FastifyInstance): void {
  const { connections, config } = app.diosc;
  const mcpUrl = `${config.publicOrigin}/mcp`;

  /** Only HTTP MCP records are managed here; browser access has its own endpoints. */
  async function requireMcp(accountId: string, id: string) {
    const row = await connections.get(accountId, id);
    if (row.transport !== 'http_mcp') throw new DioscError('not_found', `There is no connection "${id}".`);
    return row;
  }

  app.get('/connections', async (request) => ({
    connections: await connections.list(ownerOf(request).accountId, 'http_mcp'),
  }));

  app.post('/connections', async (request, reply) => {
    const owner = ownerOf(request);
    const body = bodyObject(request.body, ['displayName', 'grant', 'expiresInDays']);
    const displayName = stringField(body, 'displayName', 100);
    const grant = await connections.checkGrant(owner.accountId, body.grant);
    const days = optionalInteger(body, 'expiresInDays', 1, 3650);
    const created = await connections.createMcp(owner.accountId, {
      displayName,
      grant,
      expiresInMs: days === undefined ? undefined : days * DAY_MS,
    });
    return reply.status(201).send({ connection: created.connection, token: created.token, mcpUrl });
  });

  app.put<{ Params: { id: string } }>('/connections/:id/grant', async (request) => {
    const owner = ownerOf(request);
    const body = bodyObject(request.body, ['grant']);
    await requireMcp(owner.accountId, request.params.id);
    const grant = await connections.checkGrant(owner.accountId, body.grant);
    return { connection: await connections.changeGrant(owner.accountId, request.params.id, grant) };
  });

  app.post<{ Params: { id: string } }>('/connections/:id/rotate', async (request) => {
    const owner = ownerOf(request);
    const body = bodyObject(request.body, ['expiresInDays']);
    const days = optionalInteger(body, 'expiresInDays', 1, 3650);
    await requireMcp(owner.accountId, request.params.id);
    return connections.rotate(
      owner.accountId,
      request.params.id,
      days === undefined ? undefined : days * DAY_MS,
    );
  });

  app.delete<{ Params: { id: string } }>('/connections/:id', async (request) => {
    const owner = ownerOf(request);
    await requireMcp(owner.accountId, request.params.id);
    return { connection: await connections.revoke(owner.accountId, request.params.id) };
  });
}
