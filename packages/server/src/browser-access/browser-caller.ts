import type { OwnerIdentity } from '../auth/owner-request.js';
import type { CallerSpec } from '../calls/caller-spec.js';
import type { BrowserAccess } from './access.js';

/** The caller of every browser call: authority is the stored selection, never anything the request says. */
export function browserCaller(owner: OwnerIdentity, access: BrowserAccess): CallerSpec {
  return {
    channel: 'browser',
    accountId: owner.accountId,
    connection: { id: access.connectionId, grant: access.selection, lastUsedAt: access.lastUsedAt },
  };
}
