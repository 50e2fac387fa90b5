import { DioscError } from '@diosc/protocol';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { LITERAL_SEGMENT } from './route-pattern.js';
import { MAX_ROUTES, type SitemapRoute, validateRoutes } from './sitemap.js';

/** A standard sitemap.xml is at most 50 MB and 50,000 URLs; we read far less to build ≤ 100 routes. */
export const MAX_SITEMAP_XML_CHARS = 5 * 1024 * 1024;
export const MAX_SITEMAP_URLS = 50_000;

/**
 * Routes from a standard sitemap.xml (`<urlset><url><loc>`): each `loc` on `origin` becomes a
 * literal route (its pathname, title from the last segment). Off-origin locs, and pathnames that
 * are not plain literal segments, are dropped; the query of a loc is ignored.
 *
 * A DOCTYPE or entity declaration is refused before parsing: no DTD is ever read, so neither
 * external entities (XXE) nor entity expansion can happen; only XML's five predefined entities and
 * character references are decoded.
 *
 * @example
 * routesFromSitemapXml(await (await fetch('https://shop.example/sitemap.xml')).text(), 'https://shop.example');
 */
export function routesFromSitemapXml(xml: string, origin: string): SitemapRoute[] {
  const site = siteOrigin(origin);
  if (typeof xml !== 'string' || xml.length > MAX_SITEMAP_XML_CHARS) {
    throw new DioscError(
      'invalid_input',
      `The sitemap.xml must be text of at most ${MAX_SITEMAP_XML_CHARS} characters.`,
    );
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    throw new DioscError(
      'invalid_input',
      'The sitemap.xml declares a DOCTYPE or entities; those are refused.',
    );
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new DioscError('invalid_input', `The sitemap.xml is not well-formed XML (line ${valid.err.line}).`);
  }
  const parser = new XMLParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    parseTagValue: false,
    processEntities: true,
    htmlEntities: false,
    isArray: (name) => name === 'url' || name === 'loc',
  });
  const document = parser.parse(xml) as Record<string, unknown>;
  if (document.sitemapindex !== undefined) {
    throw new DioscError(
      'invalid_input',
      'This is a sitemap index; import one of the sitemaps it lists instead.',
    );
  }
  const urlset = document.urlset;
  // An empty `<urlset></urlset>` parses as the empty string.
  if (urlset !== '' && (typeof urlset !== 'object' || urlset === null)) {
    throw new DioscError('invalid_input', 'The sitemap.xml has no urlset element.');
  }
  const entries = typeof urlset === 'object' ? (urlset as { url?: unknown }).url : undefined;
  const urls = Array.isArray(entries) ? entries : [];
  if (urls.length > MAX_SITEMAP_URLS) {
    throw new DioscError('invalid_input', `The sitemap.xml lists more than ${MAX_SITEMAP_URLS} URLs.`);
  }
  const paths = new Set<string>();
  for (const entry of urls) {
    const loc = (entry as { loc?: unknown } | null)?.loc;
    const first = Array.isArray(loc) ? loc[0] : undefined;
    const path = typeof first === 'string' ? pathOnSite(first, site) : undefined;
    if (path !== undefined) paths.add(path);
  }
  if (paths.size > MAX_ROUTES) {
    throw new DioscError(
      'invalid_input',
      `The sitemap.xml lists ${paths.size} pages on this site; a Sitemap holds at most ${MAX_ROUTES} routes, ` +
        'so write patterns such as /products/:id instead.',
    );
  }
  return validateRoutes([...paths].map((path) => ({ path, title: titleFor(path) })));
}

function siteOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // reported below
  }
  throw new DioscError(
    'invalid_input',
    'The site origin must be an http(s) URL such as https://shop.example.',
  );
}

/** The loc's pathname as a literal route, or undefined if it is off the site or not expressible. */
function pathOnSite(loc: string, origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(loc.trim());
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  if (!segments.every((segment) => LITERAL_SEGMENT.test(segment) && segment !== '.' && segment !== '..')) {
    return undefined;
  }
  return `/${segments.join('/')}`;
}

/** `/products/red-shoes.html` → "Red shoes"; the root is "Home". */
function titleFor(path: string): string {
  const last = path.split('/').at(-1) ?? '';
  if (last === '') return 'Home';
  const words = last
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[-_.~]+/g, ' ')
    .trim();
  const title = words === '' ? last : words;
  return title.charAt(0).toUpperCase() + title.slice(1);
}
