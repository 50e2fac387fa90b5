import { css, html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { ASSISTANT_SECTIONS, type AssistantSection, assistantPath, PATHS } from '../router/router.js';
import type { ConfirmDialog } from '../ui/confirm-dialog.js';
import { sharedStyles } from '../ui/shared-styles.js';
import '../ui/confirm-dialog.js';
import './settings-form.js';
import './browser-tools-editor.js';
import './server-tools-editor.js';
import './sitemap-editor.js';
import './embed-panel.js';
import './conversations-panel.js';
import './usage-panel.js';
import './audit-panel.js';
import type { AssistantView } from '@diosc/protocol';
import { serverProblem } from './form-problems.js';

/** One assistant: its name, the section links (real URLs, so each survives a reload), the section. */
export class AssistantDetail extends LitElement {
  static override properties = {
    portal: { attribute: false },
    assistantId: { type: String },
    section: { type: String },
    conversation: { type: String },
    assistant: { state: true },
    error: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      nav ul {
        display: flex;
        flex-wrap: wrap;
        gap: 0.3rem;
        list-style: none;
        padding: 0;
        margin: 0 0 1rem;
        border-bottom: 1px solid var(--border);
      }
      nav a {
        display: inline-block;
        padding: 0.5rem 0.8rem;
        text-decoration: none;
        color: var(--muted);
        font-weight: 600;
        border-bottom: 3px solid transparent;
      }
      nav a[aria-current='page'] {
        color: var(--accent);
        border-bottom-color: var(--accent);
      }
    `,
  ];
  declare portal: Portal;
  declare assistantId: string;
  declare section: AssistantSection;
  declare conversation: string | null;
  declare assistant: AssistantView | null;
  declare error: string | null;

  constructor() {
    super();
    new I18nController(this);
    this.conversation = null;
    this.assistant = null;
    this.error = null;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('assistantId')) void this.#load();
  }

  async #load(): Promise<void> {
    this.error = null;
    try {
      this.assistant = await this.portal.assistants.get(this.assistantId);
    } catch (error) {
      this.assistant = null;
      this.error = serverProblem(error);
    }
  }

  #saved = (event: CustomEvent<AssistantView>) => {
    this.assistant = event.detail;
    this.portal.toasts.show('success', t('assistants.saved', { name: event.detail.name }));
  };

  async #delete(): Promise<void> {
    const assistant = this.assistant!;
    const ok = await this.renderRoot
      .querySelector<ConfirmDialog>('diosc-confirm-dialog')!
      .ask(
        t('assistants.deleteTitle', { name: assistant.name }),
        t('assistants.deleteBody'),
        t('assistants.delete'),
      );
    if (!ok) return;
    try {
      await this.portal.assistants.remove(assistant.id);
      this.portal.toasts.show('success', t('assistants.deleted', { name: assistant.name }));
      this.portal.router.navigate(PATHS.assistants);
    } catch (error) {
      this.portal.toasts.show('error', serverProblem(error));
    }
  }

  override render() {
    if (this.error)
      return html`<h1>${t('assistants.title')}</h1><p class="notice error mt" role="alert">${this.error}</p>
        <p><a href=${PATHS.assistants}>${t('assistants.back')}</a></p>`;
    const assistant = this.assistant;
    if (!assistant) return html`<p class="muted" role="status">${t('app.loading')}</p>`;
    return html`<div class="page-head">
        <div>
          <p class="small"><a href=${PATHS.assistants}>${t('assistants.back')}</a></p>
          <h1>${assistant.name}</h1>
          <p class="muted small mono">${assistant.model.provider} · ${assistant.model.id}</p>
        </div>
        <button class="danger" id="delete-assistant" @click=${() => void this.#delete()}>${t('assistants.delete')}</button>
      </div>
      <nav aria-label=${t('assistants.sectionsLabel')}><ul>${ASSISTANT_SECTIONS.map(
        (section) =>
          html`<li><a href=${assistantPath(assistant.id, section)} aria-current=${section === this.section ? 'page' : 'false'}>${t(`assistants.sections.${section}`)}</a></li>`,
      )}</ul></nav>
      <div @assistant-saved=${this.#saved}>${this.#section(assistant)}</div>
      <diosc-confirm-dialog></diosc-confirm-dialog>`;
  }

  #section(assistant: AssistantView) {
    switch (this.section) {
      case 'settings':
        return html`<diosc-assistant-settings .portal=${this.portal} .assistant=${assistant}></diosc-assistant-settings>`;
      case 'tools':
        return html`<diosc-browser-tools-editor .portal=${this.portal} .assistant=${assistant}></diosc-browser-tools-editor>
          <diosc-server-tools-editor .portal=${this.portal} .assistant=${assistant}></diosc-server-tools-editor>`;
      case 'sitemap':
        return html`<diosc-sitemap-editor .portal=${this.portal} .assistant=${assistant}></diosc-sitemap-editor>`;
      case 'embed':
        return html`<diosc-embed-panel .portal=${this.portal} .assistant=${assistant}></diosc-embed-panel>`;
      case 'conversations':
        return html`<diosc-conversations-panel .portal=${this.portal} .assistant=${assistant} .conversation=${this.conversation}></diosc-conversations-panel>`;
      case 'usage':
        return html`<diosc-usage-panel .portal=${this.portal} .assistant=${assistant}></diosc-usage-panel>`;
      case 'audit':
        return html`<diosc-audit-panel .portal=${this.portal} .assistant=${assistant}></diosc-audit-panel>`;
      default:
        return nothing;
    }
  }
}

customElements.define('diosc-assistant-detail', AssistantDetail);
