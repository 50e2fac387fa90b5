import { DioscError } from '@diosc/protocol';
import { describe, expect, it } from 'vitest';
import { checkNavigationPath } from '../../../src/hub/sitemap/sitemap.js';
import { MAX_SITEMAP_XML_CHARS, routesFromSitemapXml } from '../../../src/hub/sitemap/sitemap-xml.js';

const ORIGIN = 'https://shop.example';

function urlset(locs: string[]): string {
  const urls = locs.map((loc) => `  <url><loc>${loc}</loc><lastmod>2026-11-01</lastmod></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

function refused(xml: string, origin = ORIGIN): string {
  try {
    routesFromSitemapXml(xml, origin);
  } catch (error) {
    if (!DioscError.isInstance(error)) throw error;
    expect(error.code).toBe('invalid_input');
    return error.message;
  }
  throw new Error('expected the sitemap.xml to be refused');
}

describe('routesFromSitemapXml', () => {
  it('imports the locs on the origin as routes with titles from their last segment', () => {
    const routes = routesFromSitemapXml(
      urlset([
        'https://shop.example/',
        'https://shop.example/products/',
        'https://shop.example/products/red-running_shoes.html',
        ' https://shop.example/about?utm=x&amp;ref=y ',
        'https://shop.example/about',
        '<![CDATA[https://shop.example/contact]]>',
      ]),
      'https://shop.example/any/path',
    );
    expect(routes).toEqual([
      { path: '/', title: 'Home' },
      { path: '/products', title: 'Products' },
      { path: '/products/red-running_shoes.html', title: 'Red running shoes' },
      { path: '/about', title: 'About' },
      { path: '/contact', title: 'Contact' },
    ]);
    expect(checkNavigationPath(routes, '/products/red-running_shoes.html').ok).toBe(true);
  });

  it('drops locs on other origins (host, scheme, port) and ones that are not plain literal paths', () => {
    const routes = routesFromSitemapXml(
      urlset([
        'https://evil.example/phish',
        'http://shop.example/insecure',
        'https://shop.example:8443/port',
        'https://shop.example.evil.example/lookalike',
        '/relative',
        'javascript:alert(1)',
        'https://shop.example/caf%C3%A9',
        'https://shop.example/kept',
      ]),
      ORIGIN,
    );
    expect(routes).toEqual([{ path: '/kept', title: 'Kept' }]);
  });

  it('refuses a DOCTYPE or entity declaration before parsing (no XXE, no entity expansion)', () => {
    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<urlset><url><loc>&xxe;</loc></url></urlset>`;
    expect(refused(xxe)).toBe('The sitemap.xml declares a DOCTYPE or entities; those are refused.');
    const laughs = `<!doctype lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><urlset><url><loc>https://shop.example/&lol2;</loc></url></urlset>`;
    expect(refused(laughs)).toMatch(/DOCTYPE or entities/);
    expect(refused(`<urlset><!ENTITY x "y"><url><loc>https://shop.example/a</loc></url></urlset>`)).toMatch(
      /DOCTYPE or entities/,
    );
  });

  it('refuses malformed XML, a sitemap index, a missing urlset, oversized input and too many pages', () => {
    expect(refused('<urlset><url><loc>https://shop.example/a</loc></urlset>')).toMatch(/not well-formed XML/);
    expect(
      refused(
        '<sitemapindex><sitemap><loc>https://shop.example/sitemap-1.xml</loc></sitemap></sitemapindex>',
      ),
    ).toMatch(/sitemap index/);
    expect(refused('<rss><channel/></rss>')).toBe('The sitemap.xml has no urlset element.');
    expect(refused(`<urlset>${' '.repeat(MAX_SITEMAP_XML_CHARS)}</urlset>`)).toMatch(
      /at most 5242880 characters/,
    );
    const many = urlset(Array.from({ length: 150 }, (_, index) => `https://shop.example/p${index}`));
    expect(refused(many)).toMatch(/lists 150 pages on this site; a Sitemap holds at most 100 routes/);
    expect(refused(urlset(['https://shop.example/']), 'ftp://shop.example')).toMatch(
      /origin must be an http/,
    );
  });

  it('imports an empty urlset as no routes', () => {
    expect(
      routesFromSitemapXml('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>', ORIGIN),
    ).toEqual([]);
  });
});
