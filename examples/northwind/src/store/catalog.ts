import { CATEGORIES, PRODUCTS, type Product } from './products.js';

export type SortOrder = 'name' | 'price';

export interface ProductQuery {
  category?: string | null;
  q?: string | null;
  sort?: string | null;
}

/** The products a list shows: one category or all, matching the search, in the chosen order. */
export function findProducts(query: ProductQuery): Product[] {
  const words = (query.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matching = PRODUCTS.filter(
    (product) =>
      (!query.category || product.category === query.category) &&
      words.every((word) =>
        `${product.name} ${product.origin} ${product.description}`.toLowerCase().includes(word),
      ),
  );
  const order: SortOrder = query.sort === 'price' ? 'price' : 'name';
  return matching.sort((a, b) =>
    order === 'price' ? a.priceCents - b.priceCents : a.name.localeCompare(b.name, 'en'),
  );
}

export function productById(id: string): Product | undefined {
  return PRODUCTS.find((product) => product.id === id);
}

export function categoryName(id: string): string {
  return CATEGORIES.find((category) => category.id === id)?.name ?? id;
}

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' });

export function formatPrice(cents: number): string {
  return money.format(cents / 100);
}
