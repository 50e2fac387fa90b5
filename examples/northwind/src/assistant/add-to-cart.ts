import type { BrowserToolHandler } from '@diosc/kit';
import type { AppContext } from '../app/app-context.js';
import { formatPrice, productById } from '../store/catalog.js';

/**
 * `add_to_cart` — a raw tool that pokes one piece of app state. No approval: it changes nothing
 * the shopper cannot see and undo in the cart, and it never places an order.
 */
export function addToCart(app: AppContext): BrowserToolHandler {
  return (params) => {
    const id = String(params.productId ?? '');
    const product = productById(id);
    if (!product) return { error: `No product "${id}" in the catalogue` };
    const quantity = typeof params.quantity === 'number' ? params.quantity : 1;
    const inCart = app.cart.add(id, quantity);
    return {
      added: { productId: id, name: product.name, quantity },
      inCart,
      cart: { items: app.cart.count(), total: formatPrice(app.cart.totalCents()) },
    };
  };
}
