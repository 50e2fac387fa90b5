import { DioscError, type SessionStatus, type SessionView } from '@diosc/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateOwner } from '../auth/authenticate.js';
import { createCsrfToken } from '../auth/csrf.js';
import { ownerOf } from '../auth/owner-request.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { sessionCookieName, sessionCookieOptions } from '../auth/session-cookie.js';
import { SESSION_ABSOLUTE_MS, type SessionRow } from '../auth/sessions.js';
import { bodyObject, stringField } from './body.js';

/**
 * Sign-in limits per (client IP, email): 10 failed attempts per 5 minutes, so a person who types
 * their password wrong a few times is not locked out by their own successes; and 30 attempts of
 * any outcome per minute, so a burst of parallel guesses cannot slip past the failure count.
 */
const FAILURES_MAX = 10;
const FAILURES_WINDOW_MS = 5 * 60_000;
const ATTEMPTS_MAX = 30;
const ATTEMPTS_WINDOW_MS = 60_000;

const rateLimited = (ttl: number) =>
  new DioscError('rate_limited', 'Too many sign-in attempts; wait before trying again.', {
    retryAfterMs: Math.max(ttl, 1000),
  });

function view(
  account: { id: string; email: string; displayName: string },
  session: SessionRow,
  generation: number,
  browserTools: boolean,
): SessionView {
  return {
    account: { id: account.id, email: account.email, displayName: account.displayName },
    csrfToken: createCsrfToken(session.csrf_secret),
    sessionGeneration: generation,
    startedAt: new Date(session.created_at).toISOString(),
    browserTools,
  };
}

function signInKey(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return `${request.ip}|${typeof email === 'string' ? email.trim().toLowerCase().slice(0, 320) : ''}`;
}

/** POST/GET/DELETE /session: sign-in, the current session, sign-out. */
export function registerSessionRoutes(app: FastifyInstance): void {
  const { config, accounts, sessions } = app.diosc;
  const cookieName = sessionCookieName(config.publicOrigin);
  // Verifying against a throwaway hash when the email is unknown keeps both answers equally slow.
  let decoyHash: Promise<string> | undefined;

  const attempts = app.createRateLimit({
    max: ATTEMPTS_MAX,
    timeWindow: ATTEMPTS_WINDOW_MS,
    keyGenerator: signInKey,
  });
  const failures = app.createRateLimit({
    max: FAILURES_MAX,
    timeWindow: FAILURES_WINDOW_MS,
    keyGenerator: signInKey,
  });

  app.post('/session', { config: { ownerSignIn: true } }, async (request, reply: FastifyReply) => {
    const body = bodyObject(request.body, ['email', 'password']);
    const email = stringField(body, 'email', 320);
    const password = stringField(body, 'password', 1024);
    const burst = await attempts(request);
    if (!burst.isAllowed && burst.isExceeded) throw rateLimited(burst.ttl);
    const failed = await failures(request, { increment: false });
    if (!failed.isAllowed && failed.remaining === 0) throw rateLimited(failed.ttl);
    const account = await accounts.findByEmail(email.trim());
    decoyHash ??= hashPassword('decoy password that matches nothing');
    let valid = false;
    if (account?.password_hash) valid = await verifyPassword(account.password_hash, password);
    else await verifyPassword(await decoyHash, password);
    if (!account || !valid) {
      await failures(request);
      throw new DioscError('invalid_credentials');
    }
    const { sessionId, session } = await sessions.start(account.id);
    reply.setCookie(
      cookieName,
      sessionId,
      sessionCookieOptions(config.publicOrigin, SESSION_ABSOLUTE_MS / 1000),
    );
    return view(
      { id: account.id, email: account.email, displayName: account.display_name },
      session,
      session.generation,
      config.browserAccess,
    );
  });

  app.get('/session', async (request) => {
    const owner = ownerOf(request);
    return view(
      { id: owner.accountId, email: owner.email, displayName: owner.displayName },
      owner.session,
      await sessions.generationOf(owner.accountId),
      config.browserAccess,
    );
  });

  // The portal's check on every load: a signed-out visitor is a normal state, so it is a 200 with
  // `signedIn: false` (a 401 here would show as a failed request in every browser console).
  app.get('/session/status', { config: { ownerProbe: true } }, async (request): Promise<SessionStatus> => {
    try {
      const owner = await authenticateOwner(request, cookieName, sessions, accounts);
      const generation = await sessions.generationOf(owner.accountId);
      return {
        signedIn: true,
        session: view(
          { id: owner.accountId, email: owner.email, displayName: owner.displayName },
          owner.session,
          generation,
          config.browserAccess,
        ),
      };
    } catch (error) {
      if (!DioscError.isInstance(error) || error.status !== 401) throw error;
      return { signedIn: false, ended: error.code === 'session_expired' };
    }
  });

  app.delete('/session', async (request, reply) => {
    const owner = ownerOf(request);
    await sessions.end(owner.session);
    reply.clearCookie(cookieName, sessionCookieOptions(config.publicOrigin, 0));
    return reply.status(204).send();
  });
}
