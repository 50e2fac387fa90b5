import type { FastifyInstance } from 'fastify';
import { embedView } from '../../hub/embed/embed-snippet.js';
import { previewPage } from '../../hub/embed/preview-page.js';
import { ownedAssistant } from './assistant-scope.js';

/** The embed snippet as data, and the hub's live preview page of the assistant. */
export function registerEmbedRoutes(app: FastifyInstance): void {
  app.get('/:id/embed', async (request) =>
    embedView(app.diosc.config.publicOrigin, await ownedAssistant(app, request)),
  );

  app.get('/:id/preview', async (request, reply) => {
    const page = previewPage(await ownedAssistant(app, request));
    return reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', page.csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(page.html);
  });
}
