import type { AssistantView } from '@diosc/protocol';
import { html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { formatTime, I18nController, t } from '../i18n/i18n.js';
import { type AssistantSection, assistantPath, PATHS } from '../router/router.js';
import { icons } from '../ui/icons.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { assistantStyles } from './assistant-styles.js';
import { serverProblem } from './form-problems.js';
import './assistant-detail.js';
import './settings-form.js';

/**
 * The Assistants area: the list at /assistants, the create form at /assistants/new, and one
 * assistant's sections at /assistants/:id/:section.
 */
export class AssistantsPage extends LitElement {
  static override properties = {
    portal: { attribute: false },
    assistant: { type: String },
    section: { type: String },
    conversation: { type: String },
    list: { state: true },
    error: { state: true },
  };
  static override styles = [sharedStyles, assistantStyles];
  declare portal: Portal;
  declare assistant: string | null;
  declare section: AssistantSection;
  declare conversation: string | null;
  declare list: AssistantView[] | null;
  declare error: string | null;

  constructor() {
    super();
    new I18nController(this);
    this.assistant = null;
    this.section = 'settings';
    this.conversation = null;
    this.list = null;
    this.error = null;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('assistant') && this.assistant === null) void this.#load();
  }

  async #load(): Promise<void> {
    try {
      this.list = (await this.portal.assistants.list()).assistants;
    } catch (error) {
      this.error = serverProblem(error);
    }
  }

  override render() {
    if (this.assistant === 'new') return this.#create();
    if (this.assistant)
      return html`<diosc-assistant-detail .portal=${this.portal} .assistantId=${this.assistant} .section=${this.section} .conversation=${this.conversation}></diosc-assistant-detail>`;
    return this.#list();
  }

  #create() {
    return html`<div class="page-head"><div>
        <p class="small"><a href=${PATHS.assistants}>${t('assistants.back')}</a></p>
        <h1>${t('assistants.newTitle')}</h1>
        <p class="muted">${t('assistants.newSubtitle')}</p>
      </div></div>
      <diosc-assistant-settings .portal=${this.portal} .assistant=${null}
        @assistant-saved=${(event: CustomEvent<AssistantView>) => {
          this.portal.toasts.show('success', t('assistants.created', { name: event.detail.name }));
          this.portal.router.navigate(assistantPath(event.detail.id, 'tools'));
        }}></diosc-assistant-settings>`;
  }

  #list() {
    const list = this.list;
    return html`<div class="page-head">
        <div><h1>${t('assistants.title')}</h1><p class="muted">${t('assistants.subtitle')}</p></div>
        <a class="btn primary" id="new-assistant" href=${assistantPath('new')}>${icons.plus}${t('assistants.new')}</a>
      </div>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      <section class="card" aria-labelledby="assistants-heading">
        <h2 id="assistants-heading">${t('assistants.listHeading')}</h2>
        ${
          list === null
            ? html`<p class="muted mt">${t('app.loading')}</p>`
            : list.length === 0
              ? html`<p class="empty muted mt">${t('assistants.none')}</p>`
              : html`<div class="table-wrap"><table class="mt">
                <thead><tr>
                  <th scope="col">${t('assistants.col.name')}</th>
                  <th scope="col">${t('assistants.col.model')}</th>
                  <th scope="col">${t('assistants.col.origins')}</th>
                  <th scope="col">${t('assistants.col.tools')}</th>
                  <th scope="col">${t('assistants.col.updated')}</th>
                </tr></thead>
                <tbody>${list.map(
                  (a) => html`<tr data-assistant=${a.id}>
                    <td><a href=${assistantPath(a.id)}><strong>${a.name}</strong></a></td>
                    <td class="small"><span class="mono">${a.model.provider} · ${a.model.id}</span>${a.secrets.providerKey.set ? html` <span class="badge ok">${t('assistants.settings.keySet')}</span>` : nothing}</td>
                    <td class="small mono">${a.allowedOrigins.join(', ') || '—'}</td>
                    <td class="small">${t('assistants.col.toolCount', { browser: a.browserTools.length, routes: a.sitemap.length })}</td>
                    <td class="small">${formatTime(a.updatedAt)}</td>
                  </tr>`,
                )}</tbody></table></div>`
        }
      </section>`;
  }
}

customElements.define('diosc-assistants-page', AssistantsPage);
