import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkNavigationPath, validateRoutes } from '../../../src/hub/sitemap/sitemap.js';

const ORIGIN = 'https://shop.example';
const routes = validateRoutes([
  { path: '/', title: 'Home' },
  { path: '/products', title: 'Products' },
  { path: '/products/:id', title: 'Product' },
  { path: '/docs/*', title: 'Docs' },
]);

/** An independent oracle for the routes above, over the browser's own reading of the URL. */
function matchesARoute(pathname: string): boolean {
  return /^\/(?:products(?:\/[^/]+)?|docs\/[^/]+(?:\/[^/]+)*)?\/?$/.test(pathname);
}

// Pieces that make the dangerous classes likely, mixed with plain text.
const piece = fc.oneof(
  fc.constantFrom(
    '/',
    '//',
    '\\',
    '.',
    '..',
    '%2e',
    '%2E%2e',
    '%2F',
    '%2f',
    '%5C',
    '%252F',
    '%252e',
    '%25',
    '%00',
    '%0a',
    // Escapes of bytes that are not UTF-8 text (the oracle's decodeURIComponent throws on them).
    '%A0',
    '%FF',
    '%C3',
    '%E9',
    '%C0%AF',
    '%C3%A9',
    'products',
    'docs',
    '42',
    'a',
    ':',
    'javascript:',
    'http:',
    'data:',
    '?',
    '#',
    '=',
    '&',
    '+',
    ' ',
    '\t',
    '\n',
    '\r',
    '\u0000',
    '\u007f',
    '\u202e',
    '\ufeff',
    '\u00a0',
    'é',
    '\uff0f',
    'evil.com',
    '@',
  ),
  fc.string({ maxLength: 6 }),
);
const joined = (maxLength: number) => fc.array(piece, { maxLength }).map((parts) => parts.join(''));
const candidate = fc.oneof(
  joined(10),
  // Starting from a real route prefix, so a fair share of candidates is accepted and checked.
  fc
    .tuple(fc.constantFrom('/', '/products/', '/docs/', '/docs/a/'), joined(4))
    .map(([head, tail]) => head + tail),
  fc.string(),
  fc.string({ unit: 'binary' }),
);

describe('checkNavigationPath (property)', () => {
  it('never accepts a path unless it is a single-slash, same-origin, unnormalised path matching a route', () => {
    let accepted = 0;
    fc.assert(
      fc.property(candidate, (path) => {
        const result = checkNavigationPath(routes, path);
        if (!result.ok) {
          expect(result.code).toBe('path_not_in_sitemap');
          expect(result.message.length).toBeLessThan(1000);
          return;
        }
        accepted++;
        expect(result.path).toBe(path);
        expect(path.startsWith('/') && !path.startsWith('//')).toBe(true);
        expect(path).not.toMatch(/[\\\p{Cc}\p{Cf}\s]/u);
        expect(routes).toContain(result.route);
        // The browser's URL parser must read it as this site, with nothing rewritten or resolved.
        const url = new URL(path, `${ORIGIN}/some/page`);
        expect(url.origin).toBe(ORIGIN);
        expect(url.pathname).toBe(path.split(/[?#]/)[0]);
        expect(matchesARoute(url.pathname)).toBe(true);
        for (const segment of url.pathname.split('/')) {
          const decoded = decodeURIComponent(segment);
          expect(decoded).not.toMatch(/[/\\]/);
          expect(['.', '..']).not.toContain(decoded);
        }
      }),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(10); // the accepting branch really ran
  });

  it('accepts every plain path built from a route', () => {
    const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/);
    fc.assert(
      fc.property(id, fc.array(id, { minLength: 1, maxLength: 4 }), (product, doc) => {
        expect(checkNavigationPath(routes, `/products/${product}`)).toMatchObject({
          ok: true,
          route: { path: '/products/:id' },
        });
        expect(checkNavigationPath(routes, `/docs/${doc.join('/')}`)).toMatchObject({
          ok: true,
          route: { path: '/docs/*' },
        });
      }),
      { numRuns: 300 },
    );
  });
});
