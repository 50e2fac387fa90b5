import { DioscError, type FunctionName } from '@diosc/protocol';
import type { CallerContext } from '../account/caller.js';
import type { CoreResult } from '../account/core.js';
import type { OwnerIdentity } from '../auth/owner-request.js';
import { toGrant } from '../connections/grant.js';
import type { DioscContext } from '../context.js';
import { requestIdOf } from '../owner/operation-routes.js';
import { collectionOf } from '../usage/usage-log.js';
import type { BrowserAccess } from './access.js';

/** The caller of every browser call: authority is the stored selection, never anything the request says. */
export function browserCaller(owner: OwnerIdentity, access: BrowserAccess): CallerContext {
  return {
    accountId: owner.accountId,
    actor: `browser:${owner.accountId}`,
    via: 'browser',
    connectionId: access.connectionId,
    grant: toGrant(access.selection),
  };
}

/** Runs one call through the account core and records it in the usage log (transport `browser`). */
export async function runBrowserCall(
  ctx: DioscContext,
  owner: OwnerIdentity,
  access: BrowserAccess,
  tool: FunctionName,
  input: unknown,
): Promise<CoreResult> {
  const started = ctx.clock.now();
  let outcome = 'ok';
  try {
    const result = await ctx.core.execute(tool, input, browserCaller(owner, access));
    if (result.replayed) outcome = 'replayed';
    return result;
  } catch (error) {
    outcome = DioscError.isInstance(error) ? error.code : 'internal';
    throw error;
  } finally {
    await ctx.usage.record({
      accountId: owner.accountId,
      connectionId: access.connectionId,
      transport: 'browser',
      requestId: requestIdOf(input),
      tool,
      collection: collectionOf(input),
      outcome,
      durationMs: ctx.clock.now() - started,
    });
    await ctx.connections.touch(access.connectionId);
  }
}
