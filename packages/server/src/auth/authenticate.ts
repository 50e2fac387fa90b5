import { DioscError } from '@diosc/protocol';
import type { FastifyRequest } from 'fastify';
import type { Accounts } from '../account/accounts.js';
import type { OwnerIdentity } from './owner-request.js';
import type { Sessions } from './sessions.js';

/**
 * Identifies the owner from the session cookie only. No cookie or an unknown one → `unauthenticated`;
 * a session that was signed out, replaced or expired → `session_expired`.
 */
export async function authenticateOwner(
  request: FastifyRequest,
  cookieName: string,
  sessions: Sessions,
  accounts: Pick<Accounts, 'findById'>,
): Promise<OwnerIdentity> {
  const sessionId = request.cookies[cookieName];
  if (!sessionId) throw new DioscError('unauthenticated', 'Sign in first.');
  const resolved = await sessions.resolve(sessionId);
  if (resolved.status === 'unknown')
    throw new DioscError('unauthenticated', 'There is no such session; sign in.');
  if (resolved.status === 'ended') throw new DioscError('session_expired');
  const account = await accounts.findById(resolved.session.account_id);
  if (!account) throw new DioscError('session_expired');
  return {
    accountId: account.id,
    email: account.email,
    displayName: account.display_name,
    session: resolved.session,
  };
}
