import type { SitemapRoute } from './sitemap.js';

/**
 * What the model is told about the site: every route's pattern, title and description, and that
 * `navigate` accepts nothing else. Routes were validated (one-line, bounded text), so each is one
 * line here.
 *
 * @example
 * describeSitemap([{ path: '/products/:id', title: 'Product' }]);
 * // "…\n- /products/:id — Product"
 */
export function describeSitemap(routes: readonly SitemapRoute[]): string {
  if (routes.length === 0) {
    return 'Site map: this assistant has no Sitemap routes, so do not use the navigate tool.';
  }
  const lines = routes.map(
    (route) => `- ${route.path} — ${route.title}${route.description ? `: ${route.description}` : ''}`,
  );
  return [
    'Site map: the pages of this site you may open with the navigate tool.',
    'Navigate only to these paths; any other path is refused and never reaches the page.',
    'In a pattern, ":name" stands for one path segment (such as an id) and a final "*" for the rest of',
    'the path; fill them in, e.g. /products/:id becomes /products/42. A ?query or #fragment may follow.',
    ...lines,
  ].join('\n');
}
