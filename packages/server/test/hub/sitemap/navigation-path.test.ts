import { describe, expect, it } from 'vitest';
import { checkNavigationPath, type SitemapRoute, validateRoutes } from '../../../src/hub/sitemap/sitemap.js';

const routes: SitemapRoute[] = validateRoutes([
  { path: '/', title: 'Home' },
  { path: '/products', title: 'Products', description: 'All products, with filters.' },
  { path: '/products/:id', title: 'Product' },
  { path: '/products/new', title: 'New product' },
  { path: '/products/:id/reviews', title: 'Reviews' },
  { path: '/docs/*', title: 'Documentation' },
  { path: '/:slug', title: 'Landing page' },
]);

function refusedMessage(path: unknown): string {
  const result = checkNavigationPath(routes, path);
  if (result.ok)
    throw new Error(`expected ${JSON.stringify(path)} to be refused, it matched ${result.route.path}`);
  expect(result.code).toBe('path_not_in_sitemap');
  return result.message;
}

describe('checkNavigationPath: paths that match', () => {
  it.each([
    ['/', '/'],
    ['/products', '/products'],
    ['/products/', '/products'],
    ['/products/42', '/products/:id'],
    ['/products/new', '/products/new'],
    ['/products/42/reviews', '/products/:id/reviews'],
    ['/docs/guide/install', '/docs/*'],
    ['/about', '/:slug'],
    ['/products/caf%C3%A9', '/products/:id'],
    ['/products/%70', '/products/:id'],
    ['/products/100%25', '/products/:id'],
  ])('%s matches %s', (path, pattern) => {
    const result = checkNavigationPath(routes, path);
    expect(result).toEqual({ ok: true, path, route: routes.find((route) => route.path === pattern) });
  });

  it('allows a query and a fragment when the path part matches', () => {
    for (const path of [
      '/products?sort=price&page=2',
      '/products/42#reviews',
      '/products?q=red+shoes#top',
      '/?ref=nav',
    ]) {
      expect(checkNavigationPath(routes, path).ok).toBe(true);
    }
    expect(refusedMessage('/nope/deeper?sort=price')).toContain('is not in this assistant');
  });

  it('matches literals case-sensitively and refuses paths no route covers', () => {
    expect(checkNavigationPath(routes, '/Products')).toMatchObject({ ok: true, route: { path: '/:slug' } });
    expect(refusedMessage('/Products/42/x')).toContain(
      '"/Products/42/x" is not in this assistant\'s Sitemap.',
    );
    // `*` stands for one or more segments, so `/docs` itself is not under `/docs/*`.
    const docsOnly = validateRoutes([{ path: '/docs/*', title: 'Docs' }]);
    expect(checkNavigationPath(docsOnly, '/docs')).toMatchObject({ ok: false, code: 'path_not_in_sitemap' });
    expect(checkNavigationPath(docsOnly, '/docs/')).toMatchObject({ ok: false });
    expect(refusedMessage('/products/42/reviews/9')).toContain('not in this assistant');
  });
});

describe('checkNavigationPath: every unsafe class is refused with path_not_in_sitemap', () => {
  const cases: [string, unknown, RegExp][] = [
    ['not a string', 42, /is not a string/],
    ['empty', '', /is empty/],
    ['no leading slash', 'products/42', /not a relative path/],
    ['protocol-relative //host', '//evil.com/products', /starts with \/\//],
    ['triple slash', '///evil.com', /starts with \/\//],
    ['javascript: scheme', 'javascript:alert(1)', /URL with a scheme/],
    ['JaVaScRiPt: mixed case', 'JaVaScRiPt:alert(1)', /URL with a scheme/],
    ['http: URL', 'http://evil.com/products', /URL with a scheme/],
    ['https: same host still absolute', 'https://shop.example/products', /URL with a scheme/],
    ['data: URL', 'data:text/html,<script>alert(1)</script>', /URL with a scheme|percent-encode/],
    ['scheme in a segment', '/products/javascript:alert(1)', /reads as a URL scheme/],
    ['encoded scheme in a segment', '/products/javascript%3Aalert(1)', /reads as a URL scheme/],
    ['backslash host', '/\\evil.com', /backslash/],
    ['double backslash', '\\\\evil.com', /backslash/],
    ['encoded backslash', '/%5Cevil.com', /encodes a \/ or \\/],
    ['encoded //', '%2F%2Fevil.com', /not a relative path/],
    ['encoded // after /', '/%2F%2Fevil.com', /encodes a \/ or \\/],
    ['double-encoded slash', '/products/%252F%252Fevil.com', /encodes a \/ or \\/],
    ['.. segment', '/products/../admin', /\. or \.\. segment/],
    ['. segment', '/./products', /\. or \.\. segment/],
    ['encoded ..', '/products/%2e%2E', /\. or \.\. segment/],
    ['double-encoded ..', '/products/%252e%252e', /\. or \.\. segment/],
    ['..%2f traversal', '/products/..%2fadmin', /encodes a \/ or \\/],
    ['encoded too often', '/products/%2525252e', /too many times/],
    // Found by the hub fuzz (issue 16): escapes that are bytes but not UTF-8 text.
    ['a lone continuation byte', '/products/%A0', /not UTF-8 text/],
    ['a Latin-1 é', '/products/caf%E9', /not UTF-8 text/],
    ['a truncated sequence', '/products/%C3', /not UTF-8 text/],
    ['an overlong /', '/products/%C0%AF', /not UTF-8 text/],
    ['a surrogate half', '/products/%ED%A0%80', /not UTF-8 text/],
    ['non-UTF-8 after one decoding', '/products/%25A0', /not UTF-8 text/],
    ['non-UTF-8 in the query', '/products?q=%FF', /not UTF-8 text/],
    ['tab inside', '/prod\tucts', /whitespace or control/],
    ['newline inside', '/products\n/42', /whitespace or control/],
    ['tab in javascript:', 'java\tscript:alert(1)', /whitespace or control/],
    ['leading space', ' /products', /whitespace or control/],
    ['trailing space', '/products ', /whitespace or control/],
    ['NUL', '/products\u0000', /whitespace or control/],
    ['encoded NUL', '/products/%00', /encodes whitespace or control/],
    ['bidi override', '/products/\u202e42', /whitespace or control/],
    ['encoded bidi override', '/products/%E2%80%AE42', /encodes whitespace or control/],
    ['non-ASCII', '/products/café', /must percent-encode/],
    ['fullwidth slash', '/\uff0fevil.com', /must percent-encode/],
    ['markup', '/products/<script>', /must percent-encode/],
    ['bad escape', '/products/%zz', /%XX escape/],
    ['empty segment', '/products//42', /empty segment/],
    ['too long', `/products/${'a'.repeat(2048)}`, /longer than 2048/],
    ['URL in the query', '/products?next=https://evil.com', /holds a URL/],
    ['encoded // in the query', '/products?next=%2F%2Fevil.com', /holds a URL/],
    ['javascript: in the query', '/products?next=javascript:alert(1)', /holds a URL/],
    ['backslash URL in the fragment', '/products#%5C%5Cevil.com', /holds a URL/],
    ['two fragments', '/products#a#b', /more than one #/],
    ['encoded newline in the query', '/products?q=%0D%0ASet-Cookie:x', /control characters/],
  ];
  it.each(cases)('%s', (_name, path, reason) => {
    expect(refusedMessage(path)).toMatch(reason);
  });

  it('says what the model may navigate to, and refuses everything when there are no routes', () => {
    expect(refusedMessage('/nope/x')).toContain(
      'Navigate only to paths matching: /, /products, /products/:id,',
    );
    const none = checkNavigationPath([], '/');
    expect(none).toEqual({
      ok: false,
      code: 'path_not_in_sitemap',
      message:
        'The path "/" is not in this assistant\'s Sitemap. This assistant has no Sitemap routes, so it cannot navigate.',
    });
  });

  it('quotes the path escaped and cut to 200 characters in its message', () => {
    const long = `/\u202e<img src=x onerror=alert(1)>${'a'.repeat(500)}`;
    const message = refusedMessage(long);
    expect(message).not.toContain('<img');
    expect(message).not.toContain('\u202e');
    expect(message).toContain('\\u202e\\u003cimg');
    expect(message).not.toContain('a'.repeat(201));
    expect(message).toContain('…');
    expect(refusedMessage('/a\nb')).toContain('"/a\\nb"');
  });
});
