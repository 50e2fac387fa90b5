import type { CollectionRow } from '@diosc/protocol';
import type { GrantEntry } from '@diosc/webmcp';
import { html, LitElement, nothing } from 'lit';
import type { ConnectionView } from '../api/owner-api.js';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { errorText } from '../ui/error-text.js';
import { openModal } from '../ui/modal.js';
import { sharedStyles } from '../ui/shared-styles.js';
import '../ui/grant-picker.js';

const EXPIRY_DAYS = [30, 90, 365, 0] as const;

/**
 * Creates an HTTP MCP connection with an exact grant (emits `connection-created` with its token), or
 * changes an existing connection's grant (emits `connection-changed`; the token stays the same).
 */
export class ConnectionFormDialog extends LitElement {
  static override properties = {
    portal: { attribute: false },
    collections: { state: true },
    grant: { state: true },
    error: { state: true },
    busy: { state: true },
    editing: { state: true },
  };
  static override styles = [sharedStyles];
  declare portal: Portal;
  declare collections: CollectionRow[];
  declare grant: GrantEntry[];
  declare error: string | null;
  declare busy: boolean;
  declare editing: ConnectionView | null;

  constructor() {
    super();
    new I18nController(this);
    this.collections = [];
    this.grant = [];
    this.error = null;
    this.busy = false;
    this.editing = null;
  }

  /** Opens the form empty (new connection) or with `connection`'s grant to change it. */
  async open(connection: ConnectionView | null = null): Promise<void> {
    this.editing = connection;
    this.grant = connection ? structuredClone(connection.grant) : [];
    this.error = null;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog')!;
    dialog.querySelector('form')?.reset();
    openModal(dialog, dialog.querySelector<HTMLInputElement>('#app-name') ?? dialog.querySelector('h2'));
    try {
      this.collections = (await this.portal.api.operation('collections_list', {})).result.collections;
    } catch (error) {
      this.error = errorText(error);
    }
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (this.grant.length === 0) {
      this.error = t('apps.form.needGrant');
      return;
    }
    const form = new FormData(event.target as HTMLFormElement);
    const days = Number(form.get('expiry'));
    this.busy = true;
    try {
      if (this.editing) {
        const { connection } = await this.portal.api.changeGrant(this.editing.id, this.grant);
        this.renderRoot.querySelector('dialog')?.close();
        this.dispatchEvent(new CustomEvent('connection-changed', { detail: connection }));
        return;
      }
      const created = await this.portal.api.createConnection({
        displayName: String(form.get('name') ?? '').trim(),
        grant: this.grant,
        ...(days > 0 ? { expiresInDays: days } : {}),
      });
      this.renderRoot.querySelector('dialog')?.close();
      this.dispatchEvent(new CustomEvent('connection-created', { detail: created }));
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<dialog aria-labelledby="new-app-title">
      <form @submit=${this.#submit}>
        <div class="dialog-body">
          <h2 id="new-app-title">${this.editing ? t('apps.form.editTitle', { name: this.editing.displayName }) : t('apps.form.title')}</h2>
          <p class="muted mt">${this.editing ? t('apps.form.editSubtitle') : t('apps.form.subtitle')}</p>
          ${
            this.editing
              ? nothing
              : html`<div class="field mt">
                  <label for="app-name">${t('apps.form.name')}</label>
                  <input id="app-name" name="name" type="text" required maxlength="100" placeholder=${t('apps.form.namePlaceholder')} />
                </div>
                <div class="field">
                  <label for="expiry">${t('apps.form.expiry')}</label>
                  <select id="expiry" name="expiry">
                    ${EXPIRY_DAYS.map((days) => html`<option value=${days} ?selected=${days === 90}>${days ? t('apps.form.days', { count: days }) : t('apps.form.never')}</option>`)}
                  </select>
                </div>`
          }
          <fieldset class="field">
            <legend>${t('apps.form.grant')}</legend>
            <p class="small muted">${t('apps.form.grantHint')}</p>
            <diosc-grant-picker
              .collections=${this.collections}
              .value=${this.grant}
              label=${t('apps.form.grant')}
              @change=${(event: CustomEvent<GrantEntry[]>) => {
                this.grant = event.detail;
              }}
            ></diosc-grant-picker>
          </fieldset>
          ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
        </div>
        <div class="dialog-actions">
          <button type="button" @click=${() => this.renderRoot.querySelector('dialog')?.close()}>${t('common.cancel')}</button>
          <button class="primary" type="submit" ?disabled=${this.busy}>${this.editing ? t('apps.form.save') : t('apps.form.create')}</button>
        </div>
      </form>
    </dialog>`;
  }
}

customElements.define('diosc-connection-form-dialog', ConnectionFormDialog);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-connection-form-dialog': ConnectionFormDialog;
  }
}
