import { DioscError } from '@diosc/protocol';
import type { FastifyRequest } from 'fastify';
import type { SessionRow } from './sessions.js';

/** The signed-in owner of a request, set by the owner plugin's authentication hook. */
export interface OwnerIdentity {
  accountId: string;
  email: string;
  displayName: string;
  session: SessionRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    owner: OwnerIdentity | null;
  }
  interface FastifyContextConfig {
    /** Sign-in: no session yet, so no session and no CSRF token are required. */
    ownerSignIn?: boolean;
    /** Authenticates in its handler, answering "signed out" where other routes answer 401. */
    ownerProbe?: boolean;
  }
}

/** The owner of an authenticated route; the hook guarantees it, this narrows the type. */
export function ownerOf(request: FastifyRequest): OwnerIdentity {
  if (!request.owner) throw new DioscError('unauthenticated');
  return request.owner;
}
