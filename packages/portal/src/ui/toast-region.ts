import { css, html, LitElement } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { ObserveController } from '../state/observable.js';
import { sharedStyles } from './shared-styles.js';

/**
 * Short notices in a polite live region, stacked in the bottom-right corner (bottom, full width, on
 * a narrow screen), newest last, at most `TOAST_LIMIT` at once — never in the middle of the page
 * over rows and buttons.
 */
export class ToastRegion extends LitElement {
  static override properties = { portal: { attribute: false } };
  static override styles = [
    sharedStyles,
    css`
      .region {
        position: fixed;
        right: 1rem;
        bottom: 1rem;
        width: min(22rem, calc(100vw - 2rem));
        display: grid;
        justify-items: stretch;
        gap: 0.5rem;
        z-index: 10;
        pointer-events: none;
      }
      .toast {
        display: flex;
        align-items: center;
        gap: 0.75rem;
        padding: 0.7rem 0.9rem;
        border-radius: var(--radius-sm);
        background: var(--text);
        color: var(--bg);
        box-shadow: var(--shadow);
        pointer-events: auto;
      }
      .toast span {
        flex: 1;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .toast.error {
        background: var(--danger);
        color: #fff;
      }
      .toast button {
        padding: 0.15rem 0.45rem;
        background: transparent;
        color: inherit;
        border-color: transparent;
      }
    `,
  ];
  declare portal: Portal;

  constructor() {
    super();
    new I18nController(this);
    new ObserveController(this, () => [this.portal.toasts.list]);
  }

  override render() {
    return html`<div class="region" role="status" aria-live="polite">
      ${this.portal.toasts.list.value.map(
        (toast) => html`<div class="toast ${toast.kind}">
          <span>${toast.text}</span>
          <button aria-label=${t('common.dismiss')} @click=${() => this.portal.toasts.dismiss(toast.id)}>×</button>
        </div>`,
      )}
    </div>`;
  }
}

customElements.define('diosc-toast-region', ToastRegion);
