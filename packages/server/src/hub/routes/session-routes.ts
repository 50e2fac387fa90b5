import { DioscError, HUB_ROUTES, type VisitorSessionView } from '@diosc/protocol';
import { validateHubBody } from '@diosc/protocol/validators';
import type { FastifyPluginAsync } from 'fastify';
import { publicView } from '../assistants/public-view.js';
import type { HubServices } from '../hub-services.js';
import { verifyIdentity } from '../visitors/identity.js';

/**
 * `POST /sessions`: the kit opens a visitor session with the assistant's publishable key. The
 * request's `Origin` must be one of the assistant's exact allowed origins — it is what a browser
 * sends and a page cannot forge; a request without one is refused. The hub's own public origin is
 * every assistant's preview origin (the owner's live preview page is served there, and only the
 * hub's own pages are), so it is accepted too.
 */
export function sessionRoutes(
  hub: HubServices,
  limits: { perMinutePerAddress: number; previewOrigin: string },
): FastifyPluginAsync {
  return async (app) => {
    app.post(
      HUB_ROUTES.openSession.path,
      { config: { rateLimit: { max: limits.perMinutePerAddress, timeWindow: 60_000 } } },
      async (request, reply) => {
        const body = validateHubBody('openSession', request.body);
        const assistant = await hub.assistants.findByPublishableKey(body.publishableKey);
        if (!assistant) throw new DioscError('unknown_assistant');
        const origin = request.headers.origin;
        if (!origin || (origin !== limits.previewOrigin && !assistant.config.allowedOrigins.includes(origin)))
          throw new DioscError('origin_not_allowed');
        let visitorId: string | undefined;
        if (body.identity) {
          const { identitySecret } = await hub.assistants.secretsOf(assistant.id);
          visitorId = `user:${await verifyIdentity(body.identity, identitySecret, hub.clock.now())}`;
        }
        const { session, token } = await hub.visitors.open({
          assistantId: assistant.id,
          visitorId,
          origin,
          ttlMs: assistant.config.limits.sessionTtlMs,
        });
        const { label } = await hub.modelFor(assistant);
        const view: VisitorSessionView = {
          token,
          visitorId: session.visitorId,
          expiresAt: new Date(session.expiresAt).toISOString(),
          assistant: publicView(assistant, label),
        };
        reply.status(HUB_ROUTES.openSession.status);
        return view;
      },
    );
  };
}
