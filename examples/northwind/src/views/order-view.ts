import { html, type TemplateResult } from 'lit';
import type { AppContext } from '../app/app-context.js';
import { formatPrice } from '../store/catalog.js';
import { notFoundView } from './not-found-view.js';

export function orderView(app: AppContext, id: string): TemplateResult {
  const order = app.orders.find(id);
  if (!order) return notFoundView(`/orders/${id}`);
  return html`<h1>Thank you, ${order.shipping.name}!</h1>
    <p>Your order <strong id="order-id">${order.id}</strong> is on its way to ${order.shipping.address}, ${order.shipping.city}.
      We sent the receipt to ${order.shipping.email}.</p>
    <ul class="order-lines">
      ${order.lines.map((line) => html`<li>${line.quantity} × ${line.name} — ${formatPrice(line.quantity * line.priceCents)}</li>`)}
    </ul>
    <p class="total">Total: ${formatPrice(order.totalCents)}, paid on delivery.</p>
    <p><a href="/products">Continue shopping</a></p>`;
}
