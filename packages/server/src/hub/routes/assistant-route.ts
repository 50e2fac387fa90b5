import { type AssistantPublicView, DioscError, HUB_ROUTES } from '@diosc/protocol';
import type { FastifyPluginAsync } from 'fastify';
import { publicView } from '../assistants/public-view.js';
import type { HubServices } from '../hub-services.js';

/**
 * `GET /assistant`: the session's assistant as a page may see it — the same view `POST /sessions`
 * answers, read again so a long-open widget picks up the owner's later changes (a new browser
 * tool, a file policy). Never instructions, secrets or server-tool configuration (`publicView`).
 */
export function assistantRoute(hub: HubServices): FastifyPluginAsync {
  return async (app) => {
    app.get(HUB_ROUTES.assistant.path, async (request): Promise<AssistantPublicView> => {
      const assistant = await hub.assistants.find(request.visitor!.assistantId);
      // Deleted while the session was open: the session no longer reaches anything.
      if (!assistant) throw new DioscError('not_found', 'There is no such assistant.');
      const { label } = await hub.modelFor(assistant);
      return publicView(assistant, label);
    });
  };
}
