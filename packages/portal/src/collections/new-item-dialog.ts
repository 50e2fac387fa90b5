import { ID_PATTERN } from '@diosc/protocol';
import { html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { errorCode, errorText } from '../ui/error-text.js';
import { openModal } from '../ui/modal.js';
import { sharedStyles } from '../ui/shared-styles.js';

/** A readable item ID from a title: "Trip plan!" → "trip-plan". */
function slug(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return base || `note-${Date.now().toString(36)}`;
}

/** Creates a storage item; `ifNoneMatch: '*'` makes the server refuse to overwrite an existing one. */
export class NewItemDialog extends LitElement {
  static override properties = {
    portal: { attribute: false },
    error: { state: true },
    busy: { state: true },
  };
  static override styles = [sharedStyles];
  declare portal: Portal;
  declare error: string | null;
  declare busy: boolean;
  #collection = '';

  constructor() {
    super();
    new I18nController(this);
    this.error = null;
    this.busy = false;
  }

  open(collection: string): void {
    this.#collection = collection;
    this.error = null;
    const dialog = this.renderRoot.querySelector('dialog')!;
    dialog.querySelector('form')?.reset();
    openModal(dialog, dialog.querySelector<HTMLInputElement>('#new-title'));
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const title = String(form.get('title') ?? '').trim();
    const id = String(form.get('id') ?? '').trim() || slug(title);
    if (!new RegExp(ID_PATTERN).test(id)) {
      this.error = t('newItem.badId');
      return;
    }
    this.busy = true;
    try {
      await this.portal.api.operation('item_write', {
        collection: this.#collection,
        item: id,
        requestId: crypto.randomUUID(),
        ifNoneMatch: '*',
        content: { title, body: String(form.get('body') ?? ''), contentType: 'text/markdown' },
      });
      this.renderRoot.querySelector('dialog')?.close();
      this.portal.toasts.show('success', t('newItem.created', { title }));
      this.dispatchEvent(
        new CustomEvent('item-changed', { detail: { item: id }, bubbles: true, composed: true }),
      );
    } catch (error) {
      this.error =
        errorCode(error) === 'precondition_failed' ? t('newItem.exists', { id }) : errorText(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<dialog aria-labelledby="new-item-title">
      <form @submit=${this.#submit}>
        <div class="dialog-body">
          <h2 id="new-item-title">${t('newItem.title')}</h2>
          <p class="muted mt">${t('newItem.subtitle')}</p>
          <div class="field mt">
            <label for="new-title">${t('newItem.titleLabel')}</label>
            <input id="new-title" name="title" type="text" required maxlength="200" />
          </div>
          <div class="field">
            <label for="new-id">${t('newItem.idLabel')}</label>
            <input id="new-id" name="id" type="text" maxlength="128" aria-describedby="new-id-hint" />
            <span id="new-id-hint" class="small muted">${t('newItem.idHint')}</span>
          </div>
          <div class="field">
            <label for="new-body">${t('newItem.bodyLabel')}</label>
            <textarea id="new-body" name="body"></textarea>
          </div>
          ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
        </div>
        <div class="dialog-actions">
          <button type="button" @click=${() => this.renderRoot.querySelector('dialog')?.close()}>${t('common.cancel')}</button>
          <button class="primary" type="submit" ?disabled=${this.busy}>${t('newItem.create')}</button>
        </div>
      </form>
    </dialog>`;
  }
}

customElements.define('diosc-new-item-dialog', NewItemDialog);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-new-item-dialog': NewItemDialog;
  }
}
