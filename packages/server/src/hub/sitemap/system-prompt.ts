import type { SitemapRoute } from './sitemap.js';

export function describeSitemap(routes: readonly SitemapRoute[]): string {
  if (routes.length === 0) return '';
  return [
    'Site routes (navigate only to these paths):',
    ...routes.map((r) => `- ${r.path}: ${r.title}${r.description ? ` — ${r.description}` : ''}`),
  ].join('\n');
}
