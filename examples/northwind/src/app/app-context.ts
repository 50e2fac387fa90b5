import type { Cart } from '../store/cart.js';
import type { Orders } from '../store/orders.js';
import type { Router } from './router.js';

/** What every view may use; one object per app, so nothing lives in module globals. */
export interface AppContext {
  router: Router;
  cart: Cart;
  orders: Orders;
  /** The product row the assistant highlighted (`highlight_row`), until the list changes. */
  highlighted: string | null;
  /** Renders the current view again (after a change the router does not know about). */
  refresh(): void;
}
