import type { CollectionRow, ItemFull, OperationInputs } from '@diosc/protocol';
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import type { Portal } from '../app/portal.js';
import { formatTime, I18nController, t } from '../i18n/i18n.js';
import { errorCode, errorText } from '../ui/error-text.js';
import { sharedStyles } from '../ui/shared-styles.js';
import '../ui/confirm-dialog.js';
import type { ConfirmDialog } from '../ui/confirm-dialog.js';
import { itemPanelStyles } from './item-panel-styles.js';

const CONTENT_TYPES = ['text/plain', 'text/markdown', 'application/json'] as const;
type ContentType = (typeof CONTENT_TYPES)[number];

/**
 * One item: read-only for external mirrors, metadata actions for inbox messages, and a conditional
 * editor for storage items. Every save sends the version the owner started from (`ifMatch`); when
 * someone else saved first the server refuses with `precondition_failed` and the draft is kept.
 */
export class ItemPanel extends LitElement {
  static override properties = {
    portal: { attribute: false },
    collection: { attribute: false },
    itemId: { attribute: false },
    item: { state: true },
    error: { state: true },
    conflict: { state: true },
    busy: { state: true },
  };
  static override styles = [sharedStyles, itemPanelStyles];
  declare portal: Portal;
  declare collection: CollectionRow;
  declare itemId: string;
  declare item: ItemFull | null;
  declare error: string | null;
  declare conflict: boolean;
  declare busy: boolean;

  constructor() {
    super();
    new I18nController(this);
    this.item = null;
    this.error = null;
    this.conflict = false;
    this.busy = false;
  }

  override willUpdate(changed: PropertyValues<this>): void {
    // The page hands down a fresh collection row every time it refreshes its list (after each save,
    // for the counts), so only another item or another collection ID means another item. Reloading
    // on the row's identity threw away the draft and the conflict notice the owner was working on.
    const previous = changed.get('collection') as CollectionRow | undefined;
    const otherCollection = changed.has('collection') && previous?.id !== this.collection.id;
    if (changed.has('itemId') || otherCollection) void this.#load();
  }

  /** Bumped by every load, so an answer for an item the panel has since left is dropped. */
  #loading = 0;

  async #load(): Promise<void> {
    const ticket = ++this.#loading;
    this.item = null;
    this.error = null;
    this.conflict = false;
    try {
      const { result } = await this.portal.api.operation('item_read', {
        collection: this.collection.id,
        item: this.itemId,
      });
      if (ticket === this.#loading) this.item = result.item;
    } catch (error) {
      if (ticket === this.#loading) this.error = errorText(error);
    }
  }

  #changed(item: string | null): void {
    this.dispatchEvent(new CustomEvent('item-changed', { detail: { item }, bubbles: true, composed: true }));
  }

  async #write(
    input: Omit<OperationInputs['item_write'], 'collection' | 'item' | 'requestId'>,
    done: string,
  ) {
    if (!this.item) return;
    const ticket = this.#loading;
    this.busy = true;
    this.error = null;
    try {
      const { result } = await this.portal.api.operation('item_write', {
        collection: this.collection.id,
        item: this.item.id,
        requestId: crypto.randomUUID(),
        ...input,
      });
      this.portal.toasts.show('success', done);
      // The owner may have opened another item while this one was saving: leave that one alone.
      if (ticket !== this.#loading || !this.item) return;
      this.conflict = false;
      this.item = { ...this.item, ...result.item, ...(input.content ? { content: input.content.body } : {}) };
      this.#changed(this.item.id);
    } catch (error) {
      if (ticket !== this.#loading) return;
      this.conflict = errorCode(error) === 'precondition_failed';
      this.error = this.conflict ? null : errorText(error);
    } finally {
      this.busy = false;
    }
  }

  async #save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (!this.item) return;
    const form = new FormData(event.target as HTMLFormElement);
    await this.#write(
      {
        ifMatch: this.item.version,
        content: {
          title: String(form.get('title') ?? '').trim() || this.item.title,
          body: String(form.get('body') ?? ''),
          contentType: String(form.get('contentType')) as ContentType,
        },
      },
      t('item.saved'),
    );
  }

  /** Reloads the latest version but keeps the owner's draft in the editor to merge by hand. */
  async #loadLatest(): Promise<void> {
    const draft = this.renderRoot.querySelector<HTMLTextAreaElement>('textarea')?.value ?? '';
    await this.#load();
    await this.updateComplete;
    const area = this.renderRoot.querySelector<HTMLTextAreaElement>('#draft');
    if (area) area.value = draft;
  }

  async #delete(): Promise<void> {
    if (!this.item) return;
    const dialog = this.renderRoot.querySelector<ConfirmDialog>('diosc-confirm-dialog');
    const ok = await dialog?.ask(
      t('item.deleteTitle'),
      t('item.deleteBody', { title: this.item.title }),
      t('item.delete'),
    );
    if (!ok) return;
    try {
      await this.portal.api.operation('item_delete', {
        collection: this.collection.id,
        item: this.item.id,
        requestId: crypto.randomUUID(),
        ifMatch: this.item.version,
      });
      this.portal.toasts.show('success', t('item.deleted'));
      this.#changed(null);
    } catch (error) {
      this.conflict = errorCode(error) === 'precondition_failed';
      this.error = this.conflict ? null : errorText(error);
    }
  }

  override render() {
    if (this.error && !this.item) return html`<p class="notice error" role="alert">${this.error}</p>`;
    if (!this.item) return html`<p class="muted">${t('app.loading')}</p>`;
    const item = this.item;
    return html`<header>
        <h2>${item.title}</h2>
        <p class="small muted">
          ${t('item.meta', { id: item.id, version: item.version, time: formatTime(item.updatedAt) })}
        </p>
      </header>
      ${
        this.conflict
          ? html`<div class="notice warn conflict" role="alert">
            <strong>${t('item.conflictTitle')}</strong>
            <p>${t('item.conflictBody')}</p>
            <button @click=${() => void this.#loadLatest()}>${t('item.loadLatest')}</button>
          </div>`
          : nothing
      }
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${
        this.collection.kind === 'storage'
          ? this.#editor(item)
          : this.collection.kind === 'inbox'
            ? this.#message(item)
            : this.#mirror(item)
      }
      <diosc-confirm-dialog></diosc-confirm-dialog>`;
  }

  #editor(item: ItemFull) {
    return html`<form @submit=${this.#save}>
      <div class="field">
        <label for="title">${t('item.titleLabel')}</label>
        <input id="title" name="title" type="text" .value=${item.title} required maxlength="200" />
      </div>
      <div class="field">
        <label for="contentType">${t('item.contentType')}</label>
        <select id="contentType" name="contentType">
          ${CONTENT_TYPES.map((type) => html`<option value=${type} ?selected=${type === item.contentType}>${type}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="draft">${t('item.body')}</label>
        <textarea id="draft" name="body" .value=${item.content}></textarea>
      </div>
      <div class="row">
        <button class="primary" type="submit" ?disabled=${this.busy}>${t('item.save')}</button>
        <span class="spacer"></span>
        <button class="danger" type="button" @click=${() => void this.#delete()}>${t('item.delete')}</button>
      </div>
    </form>`;
  }

  #message(item: ItemFull) {
    const meta = item.metadata ?? {};
    const toggle = (field: 'read' | 'flagged' | 'archived', on: string, off: string) =>
      html`<button ?disabled=${this.busy} @click=${() => void this.#write({ ifMatch: item.version, metadata: { [field]: !meta[field] } }, t('item.updated'))}>
        ${meta[field] ? off : on}
      </button>`;
    return html`<dl>
        <dt>${t('inbox.from')}</dt><dd>${meta.from ?? '—'}</dd>
        <dt>${t('inbox.received')}</dt><dd>${formatTime(meta.receivedAt)}</dd>
      </dl>
      <div class="row badges">
        <span class="badge ${meta.read ? '' : 'accent'}">${meta.read ? t('inbox.read') : t('inbox.unread')}</span>
        ${meta.flagged ? html`<span class="badge warn">${t('inbox.flagged')}</span>` : nothing}
        ${meta.archived ? html`<span class="badge">${t('inbox.archived')}</span>` : nothing}
      </div>
      <pre class="body">${item.content}</pre>
      <div class="row">
        ${toggle('read', t('inbox.markRead'), t('inbox.markUnread'))}
        ${toggle('flagged', t('inbox.flag'), t('inbox.unflag'))}
        ${toggle('archived', t('inbox.archive'), t('inbox.unarchive'))}
      </div>`;
  }

  #mirror(item: ItemFull) {
    return html`<p class="notice small">${t('item.readOnlyMirror')}</p>
      <pre class="body">${item.content}</pre>`;
  }
}

customElements.define('diosc-item-panel', ItemPanel);
