import type { CartLine } from './cart.js';

export interface ShippingDetails {
  name: string;
  email: string;
  address: string;
  city: string;
  postalCode: string;
}

export interface Order {
  id: string;
  placedAt: string;
  shipping: ShippingDetails;
  lines: { productId: string; name: string; quantity: number; priceCents: number }[];
  totalCents: number;
}

const KEY = 'northwind-orders';

/**
 * Orders, kept in this browser only: the example has no backend of its own, which keeps the point
 * visible — the assistant works on the page, not on a server the shop would have to expose.
 */
export function createOrders(storage: Storage = localStorage) {
  const all = (): Order[] => {
    try {
      const value = JSON.parse(storage.getItem(KEY) ?? '[]');
      return Array.isArray(value) ? value : [];
    } catch {
      return [];
    }
  };
  return {
    place(shipping: ShippingDetails, lines: CartLine[], now = new Date()): Order {
      const orders = all();
      const order: Order = {
        id: `NW-${1001 + orders.length}`,
        placedAt: now.toISOString(),
        shipping,
        lines: lines.map((line) => ({
          productId: line.product.id,
          name: line.product.name,
          quantity: line.quantity,
          priceCents: line.product.priceCents,
        })),
        totalCents: lines.reduce((sum, line) => sum + line.quantity * line.product.priceCents, 0),
      };
      storage.setItem(KEY, JSON.stringify([...orders, order]));
      return order;
    },
    find(id: string): Order | undefined {
      return all().find((order) => order.id === id);
    },
  };
}

export type Orders = ReturnType<typeof createOrders>;
