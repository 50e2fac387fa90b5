import { html, type TemplateResult } from 'lit';

export function notFoundView(path: string): TemplateResult {
  return html`<h1>Page not found</h1>
    <p>There is no page at <code>${path}</code>. <a href="/products">See all products</a>.</p>`;
}
