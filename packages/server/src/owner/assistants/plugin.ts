import type { FastifyPluginAsync } from 'fastify';
import { registerAssistantRoutes } from './assistant-routes.js';
import { createNetworkBudget } from './assistant-scope.js';
import { registerAuditRoutes } from './audit-routes.js';
import { registerCheckRoutes } from './check-routes.js';
import { registerConversationRoutes } from './conversation-routes.js';
import { registerEmbedRoutes } from './embed-routes.js';
import { registerFileRoutes } from './file-routes.js';
import { registerSitemapRoutes } from './sitemap-routes.js';
import { registerUsageRoutes } from './usage-routes.js';

/**
 * The owner's assistant admin API (`/api/owner/assistants/*`, docs/api/assistants.md), inside the
 * owner plugin so every route has its session, Origin and CSRF checks. It reaches the hub only
 * through the hub's services.
 */
export const assistantsPlugin: FastifyPluginAsync = async (app) => {
  registerAssistantRoutes(app);
  const spend = createNetworkBudget(() => app.diosc.clock.now());
  registerCheckRoutes(app, spend);
  registerSitemapRoutes(app, spend);
  registerEmbedRoutes(app);
  registerConversationRoutes(app);
  registerFileRoutes(app);
  registerUsageRoutes(app);
  registerAuditRoutes(app);
};
