export interface SitemapRoute {
  path: string;
  title: string;
  description?: string;
}

/** Provisional matcher (replaced by the full sitemap module). */
export function checkNavigationPath(
  routes: readonly SitemapRoute[],
  path: string,
):
  | { ok: true; path: string; route: SitemapRoute }
  | { ok: false; code: 'path_not_in_sitemap'; message: string } {
  const refuse = {
    ok: false as const,
    code: 'path_not_in_sitemap' as const,
    message: 'The path is not one of the site routes.',
  };
  if (!/^\/(?![/\\])[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(path) || path.includes('..')) return refuse;
  const segments = path.split('/').slice(1);
  for (const route of routes) {
    const pattern = route.path.split('/').slice(1);
    if (pattern.length !== segments.length) continue;
    if (pattern.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]))) {
      return { ok: true, path, route };
    }
  }
  return refuse;
}
