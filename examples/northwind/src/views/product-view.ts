import { html, type TemplateResult } from 'lit';
import type { AppContext } from '../app/app-context.js';
import { MAX_PER_LINE } from '../store/cart.js';
import { categoryName, formatPrice, productById } from '../store/catalog.js';
import { notFoundView } from './not-found-view.js';

/** One product. `#product` is the element the assistant reads with `read_page`. */
export function productView(app: AppContext, id: string): TemplateResult {
  const product = productById(id);
  if (!product) return notFoundView(`/products/${id}`);
  const add = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const quantity = Number(new FormData(form).get('quantity'));
    app.cart.add(product.id, Number.isFinite(quantity) && quantity > 0 ? quantity : 1);
    form.querySelector('output')!.value = `Added to your cart.`;
  };
  return html`<p class="crumbs"><a href="/products?category=${product.category}">${categoryName(product.category)}</a></p>
    <article id="product">
      <h1>${product.name}</h1>
      <p class="price">${formatPrice(product.priceCents)}</p>
      <p>${product.description}</p>
      <p class="origin">Origin: ${product.origin}</p>
    </article>
    <form class="add-to-cart" @submit=${add}>
      <label for="quantity">Quantity</label>
      <input id="quantity" name="quantity" type="number" min="1" max=${MAX_PER_LINE} value="1" />
      <button type="submit" class="button">Add to cart</button>
      <output aria-live="polite"></output>
    </form>`;
}
