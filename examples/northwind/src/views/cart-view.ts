import { html, type TemplateResult } from 'lit';
import type { AppContext } from '../app/app-context.js';
import { MAX_PER_LINE } from '../store/cart.js';
import { formatPrice } from '../store/catalog.js';

export function cartView(app: AppContext): TemplateResult {
  const lines = app.cart.lines();
  if (lines.length === 0)
    return html`<h1>Your cart</h1><p class="empty">Your cart is empty. <a href="/products">Find something</a>.</p>`;
  return html`<h1>Your cart</h1>
    <table id="cart">
      <thead><tr><th scope="col">Product</th><th scope="col">Quantity</th><th scope="col" class="num">Price</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
      <tbody>
        ${lines.map(
          ({ product, quantity }) => html`<tr data-id=${product.id}>
            <td><a href="/products/${product.id}">${product.name}</a></td>
            <td><input type="number" min="0" max=${MAX_PER_LINE} .value=${String(quantity)} aria-label="Quantity of ${product.name}"
              @change=${(event: Event) => app.cart.setQuantity(product.id, Number((event.target as HTMLInputElement).value))} /></td>
            <td class="num">${formatPrice(product.priceCents * quantity)}</td>
            <td><button type="button" @click=${() => app.cart.remove(product.id)}>Remove</button></td>
          </tr>`,
        )}
      </tbody>
      <tfoot><tr><th scope="row" colspan="2">Total</th><td class="num total">${formatPrice(app.cart.totalCents())}</td><td></td></tr></tfoot>
    </table>
    <p><a class="button" href="/checkout">Go to checkout</a></p>`;
}
