import type { CollectionRow } from '@diosc/protocol';
import type { GrantEntry } from '@diosc/webmcp';
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { ObserveController } from '../state/observable.js';
import { errorText } from '../ui/error-text.js';
import { sharedStyles } from '../ui/shared-styles.js';
import '../ui/grant-picker.js';

function key(entries: readonly GrantEntry[] | null | undefined): string {
  return JSON.stringify(
    [...(entries ?? [])]
      .map((e) => [e.collection, [...e.functions].sort()])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
  );
}

/**
 * The exact selection for browser tools: current collections × functions. Submitting binds it to
 * this session on the server (and only this session); the tools registered are a projection of it.
 */
export class EnableForm extends LitElement {
  static override properties = {
    portal: { attribute: false },
    collections: { state: true },
    selection: { state: true },
    error: { state: true },
    busy: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .actions {
        margin-top: 1rem;
      }
    `,
  ];
  declare portal: Portal;
  declare collections: CollectionRow[];
  declare selection: GrantEntry[];
  declare error: string | null;
  declare busy: boolean;
  #seenAccess: string | null = null;

  constructor() {
    super();
    new I18nController(this);
    new ObserveController(this, () => [this.portal.browserTools.access]);
    this.collections = [];
    this.selection = [];
    this.error = null;
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.portal.api.operation('collections_list', {}).then(
      ({ result }) => {
        this.collections = result.collections;
      },
      (error: unknown) => {
        this.error = errorText(error);
      },
    );
  }

  override willUpdate(_changed: PropertyValues<this>): void {
    // Start from what the server holds whenever that changes (enable elsewhere, sign-in, disable).
    const access = this.portal.browserTools.access.value;
    const seen = key(access?.selection);
    if (seen !== this.#seenAccess) {
      this.#seenAccess = seen;
      this.selection = access?.selection ? structuredClone(access.selection) : [];
    }
  }

  focusFirst(): void {
    this.renderRoot
      .querySelector('diosc-grant-picker')
      ?.shadowRoot?.querySelector<HTMLInputElement>('input')
      ?.focus();
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    // Busy or unchanged: the button says so (aria-disabled) but keeps focus, so nothing is sent.
    const access = this.portal.browserTools.access.value;
    if (this.busy || (access?.enabled === true && key(access.selection) === key(this.selection))) return;
    if (this.selection.length === 0) {
      this.error = t('automation.enable.needSelection');
      return;
    }
    this.busy = true;
    this.error = null;
    try {
      await this.portal.browserTools.enable(this.selection);
      this.portal.toasts.show('success', t('automation.enable.saved'));
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const access = this.portal.browserTools.access.value;
    const enabled = access?.enabled === true;
    const unchanged = enabled && key(access?.selection) === key(this.selection);
    return html`<form @submit=${this.#submit} aria-labelledby="enable-heading">
      <h2 id="enable-heading">${t('automation.enable.heading')}</h2>
      <p class="small muted mt">${t('automation.enable.hint')}</p>
      <div class="mt">
        <diosc-grant-picker
          .collections=${this.collections}
          .value=${this.selection}
          label=${t('automation.enable.heading')}
          @change=${(event: CustomEvent<GrantEntry[]>) => {
            this.selection = event.detail;
          }}
        ></diosc-grant-picker>
      </div>
      ${this.error ? html`<p class="notice error mt" role="alert">${this.error}</p>` : nothing}
      <div class="row actions">
        <button class="primary" type="submit" aria-disabled=${this.busy || unchanged ? 'true' : 'false'}>
          ${enabled ? t('automation.enable.update') : t('automation.enable.submit')}
        </button>
        <span class="small muted">${t('automation.enable.sessionOnly')}</span>
      </div>
    </form>`;
  }
}

customElements.define('diosc-enable-form', EnableForm);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-enable-form': EnableForm;
  }
}
