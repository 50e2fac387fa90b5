import { html, type TemplateResult } from 'lit';
import { CATEGORIES } from '../store/products.js';

export function homeView(): TemplateResult {
  return html`<section class="hero">
      <h1>Teas, coffees and cocoa from small growers</h1>
      <p>Ask the assistant in the corner to find something for you — or browse yourself.</p>
      <a class="button" href="/products">Browse all products</a>
    </section>
    <h2>Shop by category</h2>
    <ul class="categories">
      ${CATEGORIES.map((category) => html`<li><a href="/products?category=${category.id}">${category.name}</a></li>`)}
    </ul>`;
}
