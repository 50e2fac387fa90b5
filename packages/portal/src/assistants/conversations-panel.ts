import { html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { formatTime, I18nController, t } from '../i18n/i18n.js';
import { assistantPath } from '../router/router.js';
import type { ConfirmDialog } from '../ui/confirm-dialog.js';
import { sharedStyles } from '../ui/shared-styles.js';
import '../ui/confirm-dialog.js';
import './transcript-view.js';
import type { AssistantView, ConversationRowView, TranscriptView } from '@diosc/protocol';
import { assistantStyles } from './assistant-styles.js';
import { serverProblem } from './form-problems.js';

/** The assistant's conversations (newest first, paged) and, when one is open, its transcript. */
export class ConversationsPanel extends LitElement {
  static override properties = {
    portal: { attribute: false },
    assistant: { attribute: false },
    conversation: { type: String },
    rows: { state: true },
    next: { state: true },
    transcript: { state: true },
    error: { state: true },
  };
  static override styles = [sharedStyles, assistantStyles];
  declare portal: Portal;
  declare assistant: AssistantView;
  declare conversation: string | null;
  declare rows: ConversationRowView[] | null;
  declare next: string | null;
  declare transcript: TranscriptView | null;
  declare error: string | null;

  constructor() {
    super();
    new I18nController(this);
    this.conversation = null;
    this.rows = null;
    this.next = null;
    this.transcript = null;
    this.error = null;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('conversation') || changed.has('assistant')) void this.#load();
  }

  async #load(more = false): Promise<void> {
    this.error = null;
    try {
      if (this.conversation) {
        this.transcript = await this.portal.assistants.transcript(this.assistant.id, this.conversation);
        return;
      }
      this.transcript = null;
      const page = await this.portal.assistants.conversations(
        this.assistant.id,
        more ? (this.next ?? undefined) : undefined,
      );
      this.rows = more ? [...(this.rows ?? []), ...page.conversations] : page.conversations;
      this.next = page.nextCursor;
    } catch (error) {
      this.error = serverProblem(error);
    }
  }

  async #delete(row: ConversationRowView): Promise<void> {
    const ok = await this.renderRoot
      .querySelector<ConfirmDialog>('diosc-confirm-dialog')!
      .ask(
        t('assistants.conversations.deleteTitle'),
        t('assistants.conversations.deleteBody', { count: row.files }),
        t('assistants.conversations.delete'),
      );
    if (!ok) return;
    try {
      const result = await this.portal.assistants.deleteConversation(this.assistant.id, row.id);
      this.portal.toasts.show(
        'success',
        t('assistants.conversations.deleted', { count: result.filesDeleted }),
      );
      this.portal.router.navigate(assistantPath(this.assistant.id, 'conversations'));
      if (!this.conversation) await this.#load();
    } catch (error) {
      this.error = serverProblem(error);
    }
  }

  override render() {
    return html`${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${this.conversation ? this.#transcript() : this.#list()}
      <diosc-confirm-dialog></diosc-confirm-dialog>`;
  }

  #list() {
    const rows = this.rows;
    return html`<section class="card" aria-labelledby="conversations-heading">
      <h2 id="conversations-heading">${t('assistants.conversations.heading')}</h2>
      ${
        rows === null
          ? html`<p class="muted mt">${t('app.loading')}</p>`
          : rows.length === 0
            ? html`<p class="empty muted mt">${t('assistants.conversations.none')}</p>`
            : html`<div class="table-wrap"><table class="mt">
              <thead><tr>
                <th scope="col">${t('assistants.conversations.time')}</th>
                <th scope="col">${t('assistants.conversations.visitor')}</th>
                <th scope="col">${t('assistants.conversations.turns')}</th>
                <th scope="col">${t('assistants.conversations.status')}</th>
                <th scope="col">${t('assistants.conversations.tools')}</th>
                <th scope="col">${t('assistants.conversations.files')}</th>
              </tr></thead>
              <tbody>${rows.map(
                (row) => html`<tr data-conversation=${row.id}>
                  <td><a href=${assistantPath(this.assistant.id, 'conversations', row.id)}>${formatTime(row.updatedAt)}</a><br /><span class="small muted">${row.title}</span></td>
                  <td class="mono small">${row.visitorId}</td>
                  <td>${row.turns}</td>
                  <td><span class="badge">${t(`assistants.conversations.statusName.${row.status}`)}</span></td>
                  <td class="small">${row.toolsCalled.length ? html`<span class="mono">${row.toolsCalled.join(', ')}</span> (${row.toolCalls})` : '—'}</td>
                  <td>${row.files}</td>
                </tr>`,
              )}</tbody></table></div>
              ${this.next ? html`<button class="mt" @click=${() => void this.#load(true)}>${t('assistants.conversations.more')}</button>` : nothing}`
      }
    </section>`;
  }

  #transcript() {
    const transcript = this.transcript;
    if (!transcript) return html`<p class="muted">${t('app.loading')}</p>`;
    const row = transcript.conversation;
    return html`<section class="card" aria-labelledby="transcript-heading">
      <div class="row">
        <a href=${assistantPath(this.assistant.id, 'conversations')}>${t('assistants.conversations.back')}</a>
        <span class="spacer"></span>
        <button class="danger" id="delete-conversation" @click=${() => void this.#delete(row)}>${t('assistants.conversations.delete')}</button>
      </div>
      <h2 id="transcript-heading" class="mt">${t('assistants.conversations.transcriptHeading', { title: row.title })}</h2>
      <p class="small muted">${t('assistants.conversations.summary', { visitor: row.visitorId, turns: row.turns, tools: row.toolCalls, files: row.files, time: formatTime(row.createdAt) })}</p>
      <diosc-transcript-view .transcript=${transcript}></diosc-transcript-view>
    </section>`;
  }
}

customElements.define('diosc-conversations-panel', ConversationsPanel);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-conversations-panel': ConversationsPanel;
  }
}
