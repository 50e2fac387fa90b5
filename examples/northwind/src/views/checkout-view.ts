import { html, type TemplateResult } from 'lit';
import type { AppContext } from '../app/app-context.js';
import { formatPrice } from '../store/catalog.js';
import type { ShippingDetails } from '../store/orders.js';

const FIELDS: { name: keyof ShippingDetails; label: string; type: string; autocomplete: string }[] = [
  { name: 'name', label: 'Full name', type: 'text', autocomplete: 'name' },
  { name: 'email', label: 'Email', type: 'email', autocomplete: 'email' },
  { name: 'address', label: 'Street address', type: 'text', autocomplete: 'street-address' },
  { name: 'city', label: 'City', type: 'text', autocomplete: 'address-level2' },
  { name: 'postalCode', label: 'Postal code', type: 'text', autocomplete: 'postal-code' },
];

/**
 * The checkout form. The assistant can bring the shopper here but has no tool that submits it:
 * placing an order stays a click of the shopper's own.
 */
export function checkoutView(app: AppContext): TemplateResult {
  const lines = app.cart.lines();
  if (lines.length === 0)
    return html`<h1>Checkout</h1><p class="empty">Your cart is empty. <a href="/products">Find something</a>.</p>`;
  const place = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    const shipping = Object.fromEntries(
      FIELDS.map((field) => [field.name, String(data.get(field.name)).trim()]),
    );
    const order = app.orders.place(shipping as unknown as ShippingDetails, lines);
    app.cart.clear();
    void app.router.navigate(`/orders/${order.id}`, { replace: true });
  };
  return html`<h1>Checkout</h1>
    <p>${app.cart.count()} item(s), ${formatPrice(app.cart.totalCents())} — paid on delivery.</p>
    <form id="checkout" class="checkout" @submit=${place}>
      ${FIELDS.map(
        (field) => html`<label for=${field.name}>${field.label}</label>
          <input id=${field.name} name=${field.name} type=${field.type} autocomplete=${field.autocomplete} required />`,
      )}
      <button type="submit" class="button">Place order</button>
    </form>`;
}
