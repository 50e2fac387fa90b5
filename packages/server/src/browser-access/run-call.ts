import type { FunctionName } from '@diosc/protocol';
import type { CallerContext } from '../account/caller.js';
import type { CoreResult } from '../account/core.js';
import type { OwnerIdentity } from '../auth/owner-request.js';
import { toGrant } from '../connections/grant.js';
import type { DioscContext } from '../context.js';
import { executeRecorded } from '../usage/recorded-call.js';
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
  try {
    return await executeRecorded(ctx, 'browser', tool, input, browserCaller(owner, access));
  } finally {
    await ctx.connections.touch(access.connectionId);
  }
}
