import { DioscError, type SitemapImportResult, type SitemapTestResult } from '@diosc/protocol';
import { validateAssistantAdminBody } from '@diosc/protocol/validators';
import type { FastifyInstance } from 'fastify';
import { checkNavigationPath, validateRoutes } from '../../hub/sitemap/sitemap.js';
import { fetchSitemapXml } from '../../hub/sitemap/sitemap-fetch.js';
import { MAX_SITEMAP_XML_CHARS, routesFromSitemapXml } from '../../hub/sitemap/sitemap-xml.js';
import { hubOf, type NetworkBudget, ownedAssistant } from './assistant-scope.js';

/** The Sitemap tester and the import from a sitemap.xml (fetched by URL, or uploaded as text). */
export function registerSitemapRoutes(app: FastifyInstance, spend: NetworkBudget): void {
  app.post('/:id/sitemap/test', async (request): Promise<SitemapTestResult> => {
    const body = validateAssistantAdminBody('sitemapTest', request.body);
    const assistant = await ownedAssistant(app, request);
    const routes = body.routes ? validateRoutes(body.routes) : assistant.config.sitemap;
    // The very check the hub applies to the model's `navigate` call.
    const verdict = checkNavigationPath(routes, body.path);
    return verdict.ok
      ? { allowed: true, route: verdict.route }
      : { allowed: false, code: verdict.code, message: verdict.message };
  });

  app.post(
    '/:id/sitemap/import',
    {
      // An uploaded sitemap's text (at most 5 MB) in JSON, escapes included.
      bodyLimit: MAX_SITEMAP_XML_CHARS + 1024 * 1024,
    },
    async (request): Promise<SitemapImportResult> => {
      const body = validateAssistantAdminBody('sitemapImport', request.body);
      const assistant = await ownedAssistant(app, request);
      if ((body.url === undefined) === (body.xml === undefined))
        throw new DioscError('invalid_input', 'Give either a url to fetch or the xml text of a sitemap.');
      const origin =
        body.origin ?? (body.url ? new URL(body.url).origin : assistant.config.allowedOrigins[0]);
      if (!origin)
        throw new DioscError(
          'invalid_input',
          'Give the origin of the site the sitemap describes (the assistant has no allowed origin yet).',
        );
      // An uploaded file's text is parsed here; only a URL reaches the network and counts.
      if (body.url !== undefined) spend(request);
      const xml = body.xml ?? (await fetchSitemapXml(hubOf(app).services.outboundFetch, body.url!));
      return { routes: routesFromSitemapXml(xml, origin), origin };
    },
  );
}
