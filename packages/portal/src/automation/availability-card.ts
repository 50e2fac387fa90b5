import { css, html, LitElement, nothing } from 'lit';
import { I18nController, t } from '../i18n/i18n.js';
import { icons } from '../ui/icons.js';
import { sharedStyles } from '../ui/shared-styles.js';
import type { Availability, AvailabilityAction } from './availability.js';

/** The availability state, its explanation, and the one action that fixes or changes it. */
export class AvailabilityCard extends LitElement {
  static override properties = { availability: { attribute: false }, busy: { type: Boolean } };
  static override styles = [
    sharedStyles,
    css`
      .card {
        display: grid;
        grid-template-columns: auto 1fr auto;
        gap: 1rem;
        align-items: center;
        border-left: 4px solid var(--border);
      }
      .card.ok {
        border-left-color: var(--ok);
      }
      .card.warn {
        border-left-color: var(--warn);
      }
      .card.danger {
        border-left-color: var(--danger);
      }
      .dot {
        width: 2.5rem;
        height: 2.5rem;
        border-radius: 50%;
        display: grid;
        place-items: center;
        background: var(--surface-2);
        color: var(--muted);
      }
      .ok .dot {
        background: var(--ok-soft);
        color: var(--ok);
      }
      .warn .dot {
        background: var(--warn-soft);
        color: var(--warn);
      }
      .danger .dot {
        background: var(--danger-soft);
        color: var(--danger);
      }
      .reason {
        margin-top: 0.4rem;
      }
      @media (max-width: 700px) {
        .card {
          grid-template-columns: 1fr;
        }
      }
    `,
  ];
  declare availability: Availability;
  declare busy: boolean;

  constructor() {
    super();
    new I18nController(this);
    this.busy = false;
  }

  #act(action: AvailabilityAction): void {
    if (this.busy) return;
    this.dispatchEvent(
      new CustomEvent('availability-action', { detail: action, bubbles: true, composed: true }),
    );
  }

  override render() {
    const { status, tone, action, reason } = this.availability;
    const key = `automation.state.${status}`;
    return html`<section class="card ${tone}" data-state=${status} aria-labelledby="availability-title" aria-live="polite">
      <div class="dot">${status === 'registered' ? icons.automation : icons.globe}</div>
      <div>
        <p class="small muted">${t('automation.availability')}</p>
        <h2 id="availability-title">${t(`${key}.title`)}</h2>
        <p class="muted mt">${t(`${key}.body`)}</p>
        ${reason ? html`<p class="reason small mono">${t('automation.reason', { reason })}</p>` : nothing}
      </div>
      ${
        action === 'open-apps'
          ? html`<a class="btn" href="/connected-apps">${t(`${key}.action`)}</a>`
          : html`<button class=${action === 'disable' ? 'danger' : 'primary'} aria-disabled=${this.busy ? 'true' : 'false'} @click=${() => this.#act(action)}>
            ${t(`${key}.action`)}
          </button>`
      }
    </section>`;
  }
}

customElements.define('diosc-availability-card', AvailabilityCard);
