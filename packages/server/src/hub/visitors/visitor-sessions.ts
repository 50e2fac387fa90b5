import { randomUUID } from 'node:crypto';
import { DioscError } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import { hashToken, randomSecret } from '../../auth/secrets.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../store/schema.js';

export interface VisitorSession {
  id: string;
  assistantId: string;
  /** `anon_…` for an anonymous visitor, `user:<sub>` for a host-signed identity. */
  visitorId: string;
  origin: string;
  expiresAt: number;
}

const TOKEN_PREFIX = 'vst_';

/** Visitor sessions; this module owns `hub_visitor_sessions`. Tokens are stored as SHA-256 only. */
export function createVisitorSessions(db: Kysely<Database>, clock: Clock) {
  return {
    async open(input: {
      assistantId: string;
      visitorId?: string;
      origin: string;
      ttlMs: number;
    }): Promise<{ session: VisitorSession; token: string }> {
      const token = `${TOKEN_PREFIX}${randomSecret(32)}`;
      const now = clock.now();
      const session: VisitorSession = {
        id: `vss_${randomUUID()}`,
        assistantId: input.assistantId,
        visitorId: input.visitorId ?? `anon_${randomUUID()}`,
        origin: input.origin,
        expiresAt: now + input.ttlMs,
      };
      await db
        .insertInto('hub_visitor_sessions')
        .values({
          token_hash: hashToken(token),
          id: session.id,
          assistant_id: session.assistantId,
          visitor_id: session.visitorId,
          origin: session.origin,
          created_at: now,
          expires_at: session.expiresAt,
        })
        .execute();
      return { session, token };
    },

    /** The live session a bearer token names; `unauthenticated` / `session_expired` otherwise. */
    async authenticate(token: string | undefined): Promise<VisitorSession> {
      if (!token?.startsWith(TOKEN_PREFIX) || token.length > 128)
        throw new DioscError('unauthenticated', 'A visitor session token is required.');
      const row = await db
        .selectFrom('hub_visitor_sessions')
        .selectAll()
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst();
      if (!row) throw new DioscError('unauthenticated', 'The visitor session token is not valid.');
      if (Number(row.expires_at) <= clock.now())
        throw new DioscError('session_expired', 'The visitor session has expired; open a new one.');
      return {
        id: row.id,
        assistantId: row.assistant_id,
        visitorId: row.visitor_id,
        origin: row.origin,
        expiresAt: Number(row.expires_at),
      };
    },

    async pruneExpired(): Promise<number> {
      const result = await db
        .deleteFrom('hub_visitor_sessions')
        .where('expires_at', '<=', clock.now())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type VisitorSessions = ReturnType<typeof createVisitorSessions>;
