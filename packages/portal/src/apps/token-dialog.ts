import { css, html, LitElement, nothing } from 'lit';
import { I18nController, t } from '../i18n/i18n.js';
import { icons } from '../ui/icons.js';
import { openModal } from '../ui/modal.js';
import { sharedStyles } from '../ui/shared-styles.js';

/**
 * Shows a new bearer token exactly once. The token lives only in this element's state while the
 * dialog is open and is dropped when it closes; the server keeps only its hash.
 */
export class TokenDialog extends LitElement {
  static override properties = {
    token: { state: true },
    mcpUrl: { state: true },
    appName: { state: true },
    copied: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .secret {
        display: flex;
        gap: 0.5rem;
        margin: 1rem 0 0.5rem;
      }
      .secret input {
        font-family: var(--mono);
        font-size: 0.85rem;
      }
      .field {
        margin-top: 1rem;
      }
    `,
  ];
  declare token: string | null;
  declare mcpUrl: string | null;
  declare appName: string;
  declare copied: boolean;

  constructor() {
    super();
    new I18nController(this);
    this.token = null;
    this.mcpUrl = null;
    this.appName = '';
    this.copied = false;
  }

  async show(appName: string, token: string, mcpUrl: string | null): Promise<void> {
    this.appName = appName;
    this.token = token;
    this.mcpUrl = mcpUrl;
    this.copied = false;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog')!;
    openModal(dialog, dialog.querySelector<HTMLButtonElement>('.copy'));
  }

  async #copy(): Promise<void> {
    if (!this.token) return;
    try {
      await navigator.clipboard.writeText(this.token);
      this.copied = true;
    } catch {
      // Clipboard refused (permissions): select the text so the owner can copy it by hand.
      this.renderRoot.querySelector<HTMLInputElement>('#token')?.select();
    }
  }

  override render() {
    return html`<dialog aria-labelledby="token-title" @close=${() => {
      this.token = null;
    }}>
      <div class="dialog-body">
        <h2 id="token-title">${t('token.title', { name: this.appName })}</h2>
        <p class="notice warn mt">${t('token.once')}</p>
        <label for="token" class="visually-hidden">${t('token.label')}</label>
        <div class="secret">
          <input id="token" type="text" readonly .value=${this.token ?? ''} @focus=${(event: Event) => (event.target as HTMLInputElement).select()} />
          <button class="copy primary" @click=${() => void this.#copy()}>${icons.copy}${this.copied ? t('token.copied') : t('token.copy')}</button>
        </div>
        ${
          this.mcpUrl
            ? html`<div class="field">
              <label for="mcp-url">${t('token.mcpUrl')}</label>
              <input id="mcp-url" type="text" readonly .value=${this.mcpUrl} />
              <span class="small muted">${t('token.howTo')}</span>
            </div>`
            : nothing
        }
      </div>
      <div class="dialog-actions">
        <button @click=${() => this.renderRoot.querySelector('dialog')?.close()}>${t('token.done')}</button>
      </div>
    </dialog>`;
  }
}

customElements.define('diosc-token-dialog', TokenDialog);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-token-dialog': TokenDialog;
  }
}
