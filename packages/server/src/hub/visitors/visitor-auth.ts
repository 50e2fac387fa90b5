import { DioscError } from '@diosc/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VisitorSession, VisitorSessions } from './visitor-sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    visitor: VisitorSession | null;
  }
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header);
  return match?.[1];
}

/**
 * Every hub call after `POST /sessions` needs the visitor session token as a bearer header, and a
 * browser request must come from the origin that opened the session. No cookie is ever read here.
 */
export function visitorAuth(sessions: VisitorSessions) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const session = await sessions.authenticate(bearerOf(request));
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== session.origin) {
      throw new DioscError('origin_not_allowed', 'This session was opened by another origin.');
    }
    request.visitor = session;
  };
}
