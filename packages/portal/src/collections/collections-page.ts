import type { CollectionRow, ItemSummary } from '@diosc/protocol';
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import type { Portal } from '../app/portal.js';
import { formatTime, I18nController, t } from '../i18n/i18n.js';
import { collectionPath } from '../router/router.js';
import { errorCode, errorText } from '../ui/error-text.js';
import '../ui/confirm-dialog.js';
import type { ConfirmDialog } from '../ui/confirm-dialog.js';
import { icons } from '../ui/icons.js';
import { sharedStyles } from '../ui/shared-styles.js';
import './item-panel.js';
import './new-item-dialog.js';
import { collectionsPageStyles } from './collections-page-styles.js';
import { defaultCollection, rememberCollection } from './last-collection.js';

/** Browse every collection (inbox, storage, external mirror), open an item, create storage items. */
export class CollectionsPage extends LitElement {
  static override properties = {
    portal: { attribute: false },
    collection: { attribute: false },
    item: { attribute: false },
    collections: { state: true },
    items: { state: true },
    error: { state: true },
  };
  static override styles = [sharedStyles, collectionsPageStyles];
  declare portal: Portal;
  declare collection: string | null;
  declare item: string | null;
  declare collections: CollectionRow[] | null;
  declare items: ItemSummary[] | null;
  declare error: string | null;

  constructor() {
    super();
    new I18nController(this);
    this.collection = null;
    this.item = null;
    this.collections = null;
    this.items = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#loadCollections();
  }

  override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('collection')) {
      if (this.collection !== null) rememberCollection(this.collection);
      void this.#loadItems();
    }
  }

  async #loadCollections(): Promise<void> {
    try {
      const { result } = await this.portal.api.operation('collections_list', {});
      this.collections = result.collections;
      const opening = this.collection === null ? defaultCollection(result.collections) : undefined;
      if (opening) this.portal.router.navigate(collectionPath(opening.id), { replace: true });
    } catch (error) {
      this.error = errorText(error);
    }
  }

  /** Bumped by every list load, so a late answer for a collection the owner has left is dropped. */
  #listing = 0;

  async #loadItems(): Promise<void> {
    const ticket = ++this.#listing;
    this.items = null;
    if (this.collection === null) return;
    try {
      const { result } = await this.portal.api.operation('items_list', {
        collection: this.collection,
        limit: 100,
      });
      if (ticket === this.#listing) this.items = result.items;
    } catch (error) {
      if (ticket !== this.#listing) return;
      // Disconnected since the list was read (elsewhere, or from the CLI): re-read it to show so.
      if (errorCode(error) === 'source_revoked') void this.#loadCollections();
      else this.error = errorText(error);
    }
  }

  /** Disconnects the provider source of an external collection, after the owner confirmed it. */
  async #disconnect(row: CollectionRow): Promise<void> {
    const dialog = this.renderRoot.querySelector<ConfirmDialog>('diosc-confirm-dialog');
    const ok = await dialog?.ask(
      t('collections.disconnectTitle', { title: row.title }),
      t('collections.disconnectBody', { title: row.title }),
      t('collections.disconnect'),
    );
    if (!ok) return;
    try {
      await this.portal.api.disconnectSource(row.id);
      this.portal.toasts.show('info', t('collections.disconnected', { title: row.title }));
    } catch (error) {
      this.portal.toasts.show('error', errorText(error));
    }
    // Browser tools offer only what can still be called: register again, in every tab.
    await Promise.all([this.#loadCollections(), this.portal.browserTools.resync()]);
  }

  /** After a save, create or delete: refresh the list and counts, and follow the new location. */
  async #changed(event: CustomEvent<{ item: string | null }>): Promise<void> {
    if (this.collection === null) return;
    const target = event.detail.item;
    this.portal.router.navigate(collectionPath(this.collection, target ?? undefined));
    await Promise.all([this.#loadItems(), this.#loadCollections()]);
  }

  override render() {
    const current = this.collections?.find((row) => row.id === this.collection) ?? null;
    return html`<div class="page-head">
        <div>
          <h1>${t('collections.title')}</h1>
          <p class="muted">${t('collections.subtitle')}</p>
        </div>
        ${
          current?.kind === 'storage'
            ? html`<button class="primary" @click=${() => this.#newItem()}>${icons.plus}${t('collections.newItem')}</button>`
            : nothing
        }
        ${
          current?.kind === 'external' && current.state !== 'disconnected'
            ? html`<button class="danger" @click=${() => void this.#disconnect(current)}>${t('collections.disconnect')}</button>`
            : nothing
        }
      </div>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      <div class="layout">
        <nav class="card list" aria-label=${t('collections.listLabel')}>${this.#collectionList()}</nav>
        <section class="card list" aria-label=${t('collections.itemsLabel')}>${this.#itemList(current)}</section>
        <section class="card detail">
          ${
            current && this.item && current.state !== 'disconnected'
              ? html`<diosc-item-panel
                .portal=${this.portal}
                .collection=${current}
                .itemId=${this.item}
                @item-changed=${this.#changed}
              ></diosc-item-panel>`
              : html`<p class="muted empty">${t('collections.pickItem')}</p>`
          }
        </section>
      </div>
      <diosc-new-item-dialog .portal=${this.portal} @item-changed=${this.#changed}></diosc-new-item-dialog>
      <diosc-confirm-dialog></diosc-confirm-dialog>`;
  }

  #newItem(): void {
    const dialog = this.renderRoot.querySelector('diosc-new-item-dialog');
    if (this.collection) dialog?.open(this.collection);
  }

  #collectionList() {
    if (!this.collections) return html`<p class="muted">${t('app.loading')}</p>`;
    return html`<ul>
      ${this.collections.map(
        (row) => html`<li>
          <a href=${collectionPath(row.id)} aria-current=${row.id === this.collection ? 'page' : 'false'}>
            <span class="kind-icon">${icons[row.kind]}</span>
            <span class="grow"><strong>${row.title}</strong><span class="small muted">${t(`kinds.${row.kind}`)}</span></span>
            ${
              row.state === 'disconnected'
                ? html`<span class="badge danger" data-state="disconnected">${t('collections.disconnectedBadge')}</span>`
                : html`<span class="badge">${row.itemCount}</span>`
            }
          </a>
        </li>`,
      )}
    </ul>`;
  }

  #itemList(current: CollectionRow | null) {
    if (!current) return html`<p class="muted">${t('collections.pickCollection')}</p>`;
    if (current.state === 'disconnected') {
      return html`<p class="notice warn" role="status" data-state="disconnected">${t('collections.disconnectedNotice')}</p>`;
    }
    if (!this.items) return html`<p class="muted">${t('app.loading')}</p>`;
    if (this.items.length === 0) return html`<p class="muted">${t('collections.empty')}</p>`;
    return html`<h2 class="visually-hidden">${current.title}</h2>
      <ul>
        ${this.items.map(
          (item) => html`<li>
            <a href=${collectionPath(current.id, item.id)} aria-current=${item.id === this.item ? 'page' : 'false'}
              class=${item.metadata && item.metadata.read === false ? 'unread' : ''}>
              <span class="grow"><strong>${item.title}</strong>
                <span class="small muted">${item.metadata?.from ?? formatTime(item.updatedAt)}</span></span>
              ${item.metadata?.flagged ? html`<span class="badge warn">${t('inbox.flagged')}</span>` : nothing}
            </a>
          </li>`,
        )}
      </ul>`;
  }
}

customElements.define('diosc-collections-page', CollectionsPage);
