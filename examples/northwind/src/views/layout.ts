import { html, type TemplateResult } from 'lit';
import type { AppContext } from '../app/app-context.js';

/** The frame of every page: the store's header with the cart count, the view, the footer. */
export function layout(app: AppContext, content: TemplateResult): TemplateResult {
  const count = app.cart.count();
  return html`<header class="site-header">
      <a class="brand" href="/">Northwind</a>
      <nav aria-label="Store">
        <a href="/products">Products</a>
        <a href="/cart" class="cart-link">Cart <span class="badge" aria-label="${count} items">${count}</span></a>
      </nav>
    </header>
    <main id="main" tabindex="-1">${content}</main>
    <footer class="site-footer">Northwind is a Diosc example store. Nothing here is for sale.</footer>`;
}
