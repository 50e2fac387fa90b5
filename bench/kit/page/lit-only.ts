// Size baseline: one Lit element and nothing else, built the same way as the kit.
import { css, html, LitElement } from 'lit';

customElements.define(
  'lit-only',
  class extends LitElement {
    static override styles = css`:host { display: block; }`;
    override render() {
      return html`<p>Lit alone</p>`;
    }
  },
);
