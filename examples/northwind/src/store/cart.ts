import { productById } from './catalog.js';
import type { Product } from './products.js';

export interface CartLine {
  product: Product;
  quantity: number;
}

export interface Cart {
  lines(): CartLine[];
  /** Adds `quantity` of a product (capped at 20 a line); returns the line's new quantity. */
  add(productId: string, quantity?: number): number;
  setQuantity(productId: string, quantity: number): void;
  remove(productId: string): void;
  clear(): void;
  count(): number;
  totalCents(): number;
  /** Called after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

export const MAX_PER_LINE = 20;
const KEY = 'northwind-cart';

/**
 * The cart, kept in `localStorage` so it survives a reload (and a full-page navigation). Stored as
 * product ids and quantities only: prices always come from the catalogue.
 */
export function createCart(storage: Storage = localStorage): Cart {
  const listeners = new Set<() => void>();
  const read = (): Record<string, number> => {
    try {
      const value = JSON.parse(storage.getItem(KEY) ?? '{}');
      return typeof value === 'object' && value !== null ? value : {};
    } catch {
      return {};
    }
  };
  const write = (items: Record<string, number>) => {
    storage.setItem(KEY, JSON.stringify(items));
    for (const listener of listeners) listener();
  };
  const clamp = (quantity: number) => Math.max(0, Math.min(MAX_PER_LINE, Math.trunc(quantity)));
  const cart: Cart = {
    lines() {
      return Object.entries(read()).flatMap(([id, quantity]) => {
        const product = productById(id);
        return product && quantity > 0 ? [{ product, quantity }] : [];
      });
    },
    add(productId, quantity = 1) {
      if (!productById(productId)) throw new Error(`No product "${productId}" in the catalogue`);
      const items = read();
      items[productId] = clamp((items[productId] ?? 0) + quantity);
      write(items);
      return items[productId];
    },
    setQuantity(productId, quantity) {
      const items = read();
      const next = clamp(quantity);
      if (next === 0) delete items[productId];
      else items[productId] = next;
      write(items);
    },
    remove(productId) {
      cart.setQuantity(productId, 0);
    },
    clear() {
      write({});
    },
    count() {
      return cart.lines().reduce((sum, line) => sum + line.quantity, 0);
    },
    totalCents() {
      return cart.lines().reduce((sum, line) => sum + line.quantity * line.product.priceCents, 0);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return cart;
}
