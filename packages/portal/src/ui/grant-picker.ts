import { COLLECTION_FUNCTIONS, type CollectionFunction, type CollectionRow } from '@diosc/protocol';
import type { GrantEntry } from '@diosc/webmcp';
import { css, html, LitElement, nothing } from 'lit';
import { I18nController, t } from '../i18n/i18n.js';
import { icons } from './icons.js';
import { sharedStyles } from './shared-styles.js';

/**
 * An exact selection: one checkbox per (current collection × function the collection supports).
 * Nothing is implied — no "all collections", no future collections; unsupported cells are shown
 * as unavailable rather than hidden, so the owner sees what is not possible too.
 */
export class GrantPicker extends LitElement {
  static override properties = {
    collections: { attribute: false },
    value: { attribute: false },
    label: { type: String },
  };
  static override styles = [
    sharedStyles,
    css`
      table {
        border: 1px solid var(--border);
        border-radius: var(--radius-sm);
        border-collapse: separate;
        border-spacing: 0;
      }
      th:not(:first-child),
      td:not(:first-child) {
        text-align: center;
        width: 17%;
      }
      td {
        vertical-align: middle;
      }
      .name {
        display: flex;
        align-items: center;
        gap: 0.5rem;
      }
      .name svg {
        color: var(--accent);
        flex: none;
      }
      input[type='checkbox'] {
        width: 1.1rem;
        height: 1.1rem;
        accent-color: var(--accent);
        cursor: pointer;
      }
      .na {
        color: var(--muted);
        font-size: 0.8rem;
      }
    `,
  ];
  declare collections: CollectionRow[];
  declare value: GrantEntry[];
  declare label: string;

  constructor() {
    super();
    new I18nController(this);
    this.collections = [];
    this.value = [];
    this.label = '';
  }

  #has(collection: string, fn: CollectionFunction): boolean {
    return this.value.some((entry) => entry.collection === collection && entry.functions.includes(fn));
  }

  #toggle(collection: string, fn: CollectionFunction, on: boolean): void {
    const others = this.value.filter((entry) => entry.collection !== collection);
    const current = new Set(this.value.find((entry) => entry.collection === collection)?.functions ?? []);
    if (on) current.add(fn);
    else current.delete(fn);
    const functions = COLLECTION_FUNCTIONS.filter((name) => current.has(name));
    this.value = functions.length > 0 ? [...others, { collection, functions }] : others;
    this.dispatchEvent(new CustomEvent('change', { detail: this.value, bubbles: true, composed: true }));
  }

  override render() {
    return html`<div class="table-wrap"><table aria-label=${this.label}>
      <thead>
        <tr>
          <th scope="col">${t('grant.collection')}</th>
          ${COLLECTION_FUNCTIONS.map((fn) => html`<th scope="col">${t(`functions.${fn}.short`)}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${this.collections.map(
          (row) => html`<tr>
            <td><span class="name">${icons[row.kind]}<span><strong>${row.title}</strong> <span class="small muted mono">${row.id}</span></span>${row.state === 'disconnected' ? html` <span class="badge danger">${t('collections.disconnectedBadge')}</span>` : nothing}</span></td>
            ${COLLECTION_FUNCTIONS.map((fn) =>
              row.functions.includes(fn)
                ? html`<td>
                    <input
                      type="checkbox"
                      data-collection=${row.id}
                      data-function=${fn}
                      aria-label=${t('grant.cellLabel', { collection: row.title, function: t(`functions.${fn}.name`) })}
                      .checked=${this.#has(row.id, fn)}
                      @change=${(event: Event) => this.#toggle(row.id, fn, (event.target as HTMLInputElement).checked)}
                    />
                  </td>`
                : html`<td class="na" title=${t('grant.unavailable')}>
                    <span aria-hidden="true">—</span><span class="visually-hidden">${t('grant.unavailable')}</span>
                  </td>`,
            )}
          </tr>`,
        )}
      </tbody>
    </table></div>`;
  }
}

customElements.define('diosc-grant-picker', GrantPicker);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-grant-picker': GrantPicker;
  }
}
