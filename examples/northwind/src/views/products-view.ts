import { html, nothing, type TemplateResult } from 'lit';
import type { AppContext } from '../app/app-context.js';
import type { Location } from '../app/router.js';
import { categoryName, findProducts, formatPrice } from '../store/catalog.js';
import { CATEGORIES } from '../store/products.js';

function listUrl(query: URLSearchParams, change: Record<string, string | null>): string {
  const next = new URLSearchParams(query);
  for (const [key, value] of Object.entries(change)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  const text = next.toString();
  return text ? `/products?${text}` : '/products';
}

/**
 * The product list: categories, search and sort live in the URL (`/products?category=tea&sort=price`),
 * so a link, the back button and the assistant's `navigate` all land on the same list. Each row
 * carries `data-id`, which is what `highlight_row` looks for.
 */
export function productsView(app: AppContext, location: Location): TemplateResult {
  const { query } = location;
  const category = query.get('category');
  const q = query.get('q') ?? '';
  const products = findProducts({ category, q, sort: query.get('sort') });
  const search = (event: SubmitEvent) => {
    event.preventDefault();
    const value = new FormData(event.target as HTMLFormElement).get('q');
    void app.router.navigate(listUrl(query, { q: typeof value === 'string' ? value.trim() : null }));
  };
  const sort = (event: Event) =>
    void app.router.navigate(listUrl(query, { sort: (event.target as HTMLSelectElement).value || null }), {
      replace: true,
    });
  return html`<h1>${category ? categoryName(category) : 'All products'}</h1>
    <div class="filters">
      <nav aria-label="Categories" class="chips">
        <a href=${listUrl(query, { category: null })} aria-current=${category ? nothing : 'page'}>All</a>
        ${CATEGORIES.map(
          (each) =>
            html`<a href=${listUrl(query, { category: each.id })} aria-current=${category === each.id ? 'page' : nothing}>${each.name}</a>`,
        )}
      </nav>
      <form role="search" @submit=${search}>
        <label for="q">Search</label>
        <input id="q" name="q" type="search" .value=${q} placeholder="e.g. green, India, chocolate" />
        <button type="submit">Search</button>
      </form>
      <label>Sort by
        <select @change=${sort}>
          <option value="" ?selected=${query.get('sort') !== 'price'}>Name</option>
          <option value="price" ?selected=${query.get('sort') === 'price'}>Price, lowest first</option>
        </select>
      </label>
    </div>
    ${
      products.length === 0
        ? html`<p class="empty">No products match “${q}”.</p>`
        : html`<table id="products">
          <thead><tr><th scope="col">Product</th><th scope="col">Category</th><th scope="col">Origin</th><th scope="col" class="num">Price</th><th scope="col"><span class="visually-hidden">Cart</span></th></tr></thead>
          <tbody>
            ${products.map(
              (
                product,
              ) => html`<tr data-id=${product.id} class=${app.highlighted === product.id ? 'is-highlighted' : ''}>
                <td><a href="/products/${product.id}">${product.name}</a></td>
                <td>${categoryName(product.category)}</td>
                <td>${product.origin}</td>
                <td class="num">${formatPrice(product.priceCents)}</td>
                <td><button type="button" @click=${() => app.cart.add(product.id)} aria-label="Add ${product.name} to the cart">Add</button></td>
              </tr>`,
            )}
          </tbody>
        </table>`
    }`;
}
