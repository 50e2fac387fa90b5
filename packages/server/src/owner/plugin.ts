import { DioscError } from '@diosc/protocol';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import { authenticateOwner } from '../auth/authenticate.js';
import { verifyCsrfToken } from '../auth/csrf.js';
import { assertMutationProvenance, isMutation, refuseCrossSite } from '../auth/mutation-guard.js';
import { rateLimitStoreOption } from '../http/shared-rate-store.js';
import '../auth/owner-request.js';
import { sessionCookieName } from '../auth/session-cookie.js';
import { browserAccessPlugin } from '../browser-access/plugin.js';
import { registerActivityRoutes } from './activity-routes.js';
import { assistantsPlugin } from './assistants/plugin.js';
import { registerCollectionRoutes } from './collection-routes.js';
import { registerConnectionRoutes } from './connection-routes.js';
import { registerOperationRoutes } from './operation-routes.js';
import { registerSessionRoutes } from './session-routes.js';

/**
 * The owner API (`/api/owner/*`, contract in docs/api/owner.md): authenticated by the session cookie
 * only, every mutation behind the guard (exact Origin, Fetch Metadata, JSON only, session-bound CSRF
 * token), every response `no-store`. Cookie, rate-limit and body parsing are encapsulated here.
 */
export const ownerPlugin: FastifyPluginAsync = async (app) => {
  const { config, accounts, sessions } = app.diosc;
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, { global: false, ...rateLimitStoreOption(app.diosc.store) });
  const cookieName = sessionCookieName(config.publicOrigin);

  // Bodies are the server's one JSON parser (http/json-body.ts): an empty body reads as undefined.
  app.decorateRequest('owner', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // A bearer credential belongs to /mcp; here it is refused unread, never looked up.
    if (request.headers.authorization !== undefined) {
      throw new DioscError(
        'unauthenticated',
        'The owner API accepts the session cookie only, not a bearer token.',
      );
    }
  });
  app.addHook('preHandler', async (request) => {
    refuseCrossSite(request);
    const mutation = isMutation(request.method);
    if (mutation) assertMutationProvenance(request, config.publicOrigin);
    if (request.routeOptions.config.ownerSignIn || request.routeOptions.config.ownerProbe) return;
    request.owner = await authenticateOwner(request, cookieName, sessions, accounts);
    if (mutation && !verifyCsrfToken(request.owner.session.csrf_secret, request.headers['x-csrf-token'])) {
      throw new DioscError('csrf_failed');
    }
  });

  registerSessionRoutes(app);
  registerOperationRoutes(app);
  registerConnectionRoutes(app);
  registerCollectionRoutes(app);
  registerActivityRoutes(app);
  await app.register(browserAccessPlugin, { prefix: '/browser-access' });
  await app.register(assistantsPlugin, { prefix: '/assistants' });
};
