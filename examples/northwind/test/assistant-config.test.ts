import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkNavigationPath, parseAssistantInput } from '@diosc/server/testing';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROUTES } from '../src/app/routes.js';
import { findProducts } from '../src/store/catalog.js';
import { PRODUCTS } from '../src/store/products.js';

const file = fileURLToPath(new URL('../assistant.yaml', import.meta.url));
const assistant = (parse(readFileSync(file, 'utf8')) as { assistants: Record<string, unknown>[] })
  .assistants[0]!;
const { config } = parseAssistantInput(assistant);

describe('assistant.yaml: the Northwind assistant an operator would keep in git', () => {
  it('is a valid assistant: the hub accepts it as it is', () => {
    expect(config.name).toBe('Northwind assistant');
    expect(config.browserTools.map((tool) => tool.name)).toEqual(['highlight_row', 'add_to_cart']);
  });

  it('its Sitemap lists only pages the router can show — and keeps an order’s page out', () => {
    const sitemap = config.sitemap.map((route) => route.path);
    for (const path of sitemap) expect(ROUTES).toContain(path);
    expect(sitemap).not.toContain('/orders/:id');
    expect(checkNavigationPath(config.sitemap, '/orders/NW-1001').ok).toBe(false);
  });

  it('every path the scripted model asks for is one the Sitemap allows', () => {
    for (const path of [
      '/products?category=tea&sort=price',
      '/products/assam',
      '/products?q=green%20tea',
      '/cart',
      '/checkout',
    ])
      expect(checkNavigationPath(config.sitemap, path)).toMatchObject({ ok: true });
  });

  it('the declared schemas accept what the page’s handlers need and refuse the rest', () => {
    const ajv = new Ajv({ strict: false });
    const [highlight, add] = config.browserTools.map((tool) => ajv.compile(tool.inputSchema));
    expect(highlight!({ id: 'assam' })).toBe(true);
    expect(highlight!({ id: 'assam', style: 'red' })).toBe(false);
    expect(add!({ productId: 'assam', quantity: 2 })).toBe(true);
    expect(add!({ productId: 'assam', quantity: 0 })).toBe(false);
    expect(add!({ productId: 'assam', quantity: 21 })).toBe(false);
  });
});

describe('the catalogue behind the list', () => {
  it('filters by category and words, and sorts by price for “the cheapest”', () => {
    expect(findProducts({ category: 'tea', sort: 'price' }).map((product) => product.id)).toEqual([
      'assam',
      'rooibos',
      'earl-grey',
      'sencha',
      'oolong',
    ]);
    expect(findProducts({ q: 'chocolate milk' }).map((product) => product.id)).toEqual(['cocoa-dark']);
    expect(findProducts({})).toHaveLength(PRODUCTS.length);
  });
});
