import { catalogDescriptors, DioscError, type GrantEntry } from '@diosc/protocol';
import type { CallerContext } from '../../account/caller.js';
import { exposedFunctions, toGrant } from '../../connections/grant.js';
import type { DioscContext } from '../../context.js';
import type { ServerTool } from './server-tool.js';

/**
 * This account's own catalog as server tools, through the app connection that carries the
 * assistant's exact grant. The grant is re-read on every call, so a changed grant or a revoked
 * connection applies to the very next call. No token is involved: the hub calls the account core
 * directly, so none can reach the model or the page.
 */
export function accountCatalogTools(
  diosc: DioscContext,
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
        const caller: CallerContext = {
          accountId,
          actor: `connection:${connectionId}`,
          via: 'http_mcp',
          connectionId,
          grant: toGrant(JSON.parse(connection.grant_json) as GrantEntry[]),
          signal: context.signal,
        };
        const { result } = await diosc.core.execute(descriptor.name, args, caller);
        return result;
      },
    }));
}
