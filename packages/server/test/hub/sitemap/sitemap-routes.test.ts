import { DioscError } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import { validateRoutes } from '../../../src/hub/sitemap/sitemap.js';
import { describeSitemap } from '../../../src/hub/sitemap/system-prompt.js';

function invalid(routes: unknown): string {
  try {
    validateRoutes(routes);
  } catch (error) {
    if (!DioscError.isInstance(error)) throw error;
    expect(error.code).toBe('invalid_input');
    return error.message;
  }
  throw new Error('expected the routes to be refused');
}

describe('validateRoutes', () => {
  it('keeps valid routes, trimming text and one trailing slash, dropping unknown fields', () => {
    expect(
      validateRoutes([
        { path: '/', title: ' Home ' },
        { path: '/blog/', title: 'Blog', description: 'Posts,\nnewest first.', extra: true },
        { path: '/products/:id', title: 'Product', description: '' },
        { path: '/docs/*', title: 'Docs' },
        { path: '/a-b/c.d/e_f/~g', title: 'Unreserved' },
      ]),
    ).toEqual([
      { path: '/', title: 'Home' },
      { path: '/blog', title: 'Blog', description: 'Posts, newest first.' },
      { path: '/products/:id', title: 'Product' },
      { path: '/docs/*', title: 'Docs' },
      { path: '/a-b/c.d/e_f/~g', title: 'Unreserved' },
    ]);
  });

  it.each([
    ['products', /route 1 "products" must start with \//],
    ['//products', /must start with a single \//],
    ['/products?page=1', /must not contain a query/],
    ['/products#top', /or fragment/],
    ['/products//:id', /empty segment/],
    ['/docs/*/more', /\* only as the last segment/],
    ['/products/:', /bad parameter/],
    ['/products/:1d', /bad parameter/],
    ['/a/:id/b/:id', /uses the parameter :id twice/],
    ['/products/../admin', /\. or \.\. segments/],
    ['/caf\u00e9', /may only use letters/],
    ['/pro ducts', /may only use letters/],
    ['/products/%2F', /may only use letters/],
    ['/\\evil', /may only use letters/],
    [`/${'a'.repeat(600)}`, /longer than 512/],
  ])('refuses the pattern %s', (path, message) => {
    expect(invalid([{ path, title: 'X' }])).toMatch(message);
  });

  it('refuses bad shapes, titles, duplicates and more than 100 routes', () => {
    expect(invalid({ path: '/' })).toBe('The Sitemap must be a list of routes.');
    expect(invalid(['/'])).toBe('Sitemap route 1 is not an object.');
    expect(invalid([{ title: 'x' }])).toBe('Sitemap route 1 has no path pattern.');
    expect(invalid([{ path: '/' }])).toMatch(/needs a title/);
    expect(invalid([{ path: '/', title: '   ' }])).toMatch(/needs a title/);
    expect(invalid([{ path: '/', title: 'x'.repeat(201) }])).toMatch(/at most 200/);
    expect(invalid([{ path: '/', title: 'Home', description: 5 }])).toMatch(/bad description/);
    expect(
      invalid([
        { path: '/products/:id', title: 'A' },
        { path: '/products/:slug', title: 'B' },
      ]),
    ).toBe('Sitemap route 2 "/products/:slug" matches the same paths as route 1.');
    expect(
      invalid([
        { path: '/blog', title: 'A' },
        { path: '/blog/', title: 'B' },
      ]),
    ).toMatch(/same paths as route 1/);
    const many = Array.from({ length: 101 }, (_, index) => ({ path: `/p${index}`, title: `P${index}` }));
    expect(invalid(many)).toBe('The Sitemap has 101 routes; at most 100 are allowed.');
    expect(validateRoutes(many.slice(0, 100))).toHaveLength(100);
  });
});

describe('describeSitemap', () => {
  it('lists every route with its pattern, title and description, and says to navigate only there', () => {
    const text = describeSitemap(
      validateRoutes([
        { path: '/', title: 'Home' },
        { path: '/products/:id', title: 'Product', description: "One product's page." },
      ]),
    );
    expect(text).toContain('Navigate only to these paths');
    expect(text.split('\n').slice(-2)).toEqual([
      '- / — Home',
      "- /products/:id — Product: One product's page.",
    ]);
  });

  it('says not to navigate when there are no routes', () => {
    expect(describeSitemap([])).toMatch(/no Sitemap routes, so do not use the navigate tool/);
  });
});
