import type { TemplateResult } from 'lit';
import { categoryName, productById } from '../store/catalog.js';
import { cartView } from '../views/cart-view.js';
import { checkoutView } from '../views/checkout-view.js';
import { homeView } from '../views/home-view.js';
import { notFoundView } from '../views/not-found-view.js';
import { orderView } from '../views/order-view.js';
import { productView } from '../views/product-view.js';
import { productsView } from '../views/products-view.js';
import type { AppContext } from './app-context.js';
import type { Location } from './router.js';

/** The view and the document title for where the router is. */
export function viewFor(app: AppContext, location: Location): { title: string; view: TemplateResult } {
  const { params } = location;
  switch (location.pattern) {
    case '/':
      return { title: 'Northwind', view: homeView() };
    case '/products': {
      const category = location.query.get('category');
      return {
        title: `${category ? categoryName(category) : 'All products'} · Northwind`,
        view: productsView(app, location),
      };
    }
    case '/products/:id':
      return {
        title: `${productById(params.id!)?.name ?? 'Product not found'} · Northwind`,
        view: productView(app, params.id!),
      };
    case '/cart':
      return { title: 'Your cart · Northwind', view: cartView(app) };
    case '/checkout':
      return { title: 'Checkout · Northwind', view: checkoutView(app) };
    case '/orders/:id':
      return { title: `Order ${params.id} · Northwind`, view: orderView(app, params.id!) };
    default:
      return { title: 'Page not found · Northwind', view: notFoundView(location.path) };
  }
}
