import { catalogDescriptors, DioscError, type GrantEntry } from '@diosc/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { runCall } from '../../calls/run-call.js';
import { exposedFunctions } from '../../connections/grant.js';
import type { DioscContext } from '../../context.js';
import type { ServerTool } from './server-tool.js';

/**
 * This account's own catalog as server tools, through the app connection that carries the
 * assistant's exact grant and the one call path every transport uses (usage row, last-used marker).
 * The grant is re-read on every call, so a changed grant or a revoked connection applies to the
 * very next call. No token is involved: none can reach the model or the page.
 */
export function accountCatalogTools(
  diosc: DioscContext,
  log: FastifyBaseLogger,
  accountId: string,
  connectionId: string,
  grant: GrantEntry[],
): ServerTool[] {
  const names = new Set(exposedFunctions(grant));
  return catalogDescriptors()
    .filter((descriptor) => names.has(descriptor.name))
    .map((descriptor) => ({
      name: descriptor.name,
      description: descriptor.description,
      inputSchema: descriptor.inputSchema as Record<string, unknown>,
      async execute(args, context) {
        const connection = await diosc.connections.get(accountId, connectionId);
        if (connection.revoked_at !== null) throw new DioscError('revoked');
        const { result } = await runCall(
          { ...diosc, log },
          {
            name: descriptor.name,
            input: args,
            caller: {
              channel: 'hub',
              accountId,
              connection: {
                id: connectionId,
                grant: JSON.parse(connection.grant_json) as GrantEntry[],
                lastUsedAt: connection.last_used_at === null ? null : Number(connection.last_used_at),
              },
              signal: context.signal,
            },
          },
        );
        return result;
      },
    }));
}
