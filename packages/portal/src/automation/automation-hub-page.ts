import { css, html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { ObserveController } from '../state/observable.js';
import { errorText } from '../ui/error-text.js';
import { sharedStyles } from '../ui/shared-styles.js';
import type { ActivityLog } from './activity-log.js';
import { type AvailabilityAction, availabilityOf } from './availability.js';
import type { EnableForm } from './enable-form.js';
import './availability-card.js';
import './enable-form.js';
import './tool-list.js';
import './activity-log.js';

/**
 * Browser tools: lets the agent built into this browser call the account's tools on this page,
 * within an exact selection, for this session only. Not an assistant connection, not an import.
 */
export class AutomationHubPage extends LitElement {
  static override properties = { portal: { attribute: false }, busy: { state: true } };
  static override styles = [
    sharedStyles,
    css`
      .grid {
        display: grid;
        grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
        gap: 1rem;
        margin-top: 1rem;
        align-items: start;
      }
      .grid > .card {
        margin-top: 0;
      }
      .grid.single {
        grid-template-columns: minmax(0, 1fr);
      }
      .activity {
        margin-top: 1rem;
      }
      .scope {
        margin-top: 1rem;
        font-size: 0.85rem;
      }
      .scope ul {
        margin: 0.4rem 0 0;
        padding-left: 1.1rem;
      }
      .head-row {
        display: flex;
        align-items: center;
        justify-content: space-between;
      }
      @media (max-width: 900px) {
        .grid {
          /* minmax(0, …): a wide selection table scrolls inside its card instead of widening the page. */
          grid-template-columns: minmax(0, 1fr);
        }
      }
    `,
  ];
  declare portal: Portal;
  declare busy: boolean;

  constructor() {
    super();
    new I18nController(this);
    new ObserveController(this, () => [
      this.portal.browserTools.state,
      this.portal.browserTools.featureDisabled,
      this.portal.session.state,
    ]);
    this.busy = false;
  }

  async #act(event: CustomEvent<AvailabilityAction>): Promise<void> {
    const tools = this.portal.browserTools;
    this.busy = true;
    try {
      if (event.detail === 'enable')
        this.renderRoot.querySelector<EnableForm>('diosc-enable-form')?.focusFirst();
      else if (event.detail === 'disable') {
        await tools.disable();
        this.portal.toasts.show('info', t('automation.disabled'));
      } else if (event.detail === 'retry') await tools.refresh();
      else if (event.detail === 'sign-in')
        this.portal.session.state.set({ status: 'signed-out', notice: 'expired' });
    } catch (error) {
      this.portal.toasts.show('error', errorText(error));
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const state = this.portal.browserTools.state.value;
    const availability = availabilityOf(
      state,
      this.portal.session.state.value,
      this.portal.browserTools.featureDisabled.value,
    );
    const offered = availability.status !== 'unsupported' && availability.status !== 'feature-disabled';
    const canEnable = offered && availability.status !== 'expired-session';
    return html`<div class="page-head">
        <div>
          <h1>${t('automation.title')}</h1>
          <p class="muted">${t('automation.subtitle')}</p>
        </div>
      </div>
      <diosc-availability-card .availability=${availability} ?busy=${this.busy} @availability-action=${this.#act}></diosc-availability-card>
      <div class="notice scope">
        <strong>${t('automation.scope.heading')}</strong>
        <ul>
          <li>${t('automation.scope.session')}</li>
          <li>${t('automation.scope.notAssistant')}</li>
          <li>${t('automation.scope.review')}</li>
        </ul>
      </div>
      ${offered ? this.#details(state.status === 'registered' ? state.tools : [], canEnable) : nothing}
      ${availability.status === 'expired-session' ? nothing : this.#activity()}`;
  }

  #details(tools: string[], canEnable: boolean) {
    return html`<div class="grid ${canEnable ? '' : 'single'}">
      ${canEnable ? html`<section class="card"><diosc-enable-form .portal=${this.portal}></diosc-enable-form></section>` : nothing}
      <section class="card" aria-labelledby="tools-heading">
        <h2 id="tools-heading">${t('automation.tools.heading')}</h2>
        <diosc-tool-list .tools=${tools}></diosc-tool-list>
      </section>
    </div>`;
  }

  #activity() {
    return html`<section class="card activity" aria-labelledby="activity-heading">
      <div class="head-row">
        <h2 id="activity-heading">${t('automation.activity.heading')}</h2>
        <button class="ghost" @click=${() => void this.renderRoot.querySelector<ActivityLog>('diosc-activity-log')?.reload()}>
          ${t('automation.activity.refresh')}
        </button>
      </div>
      <diosc-activity-log .portal=${this.portal}></diosc-activity-log>
    </section>`;
  }
}

customElements.define('diosc-automation-hub-page', AutomationHubPage);
