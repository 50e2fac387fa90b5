import { html, LitElement } from 'lit';
import { I18nController, t } from '../i18n/i18n.js';
import { openModal } from './modal.js';
import { sharedStyles } from './shared-styles.js';

/** A yes/no question in a native modal dialog; `ask` resolves with the answer. */
export class ConfirmDialog extends LitElement {
  static override properties = {
    heading: { state: true },
    body: { state: true },
    confirmLabel: { state: true },
  };
  static override styles = [sharedStyles];
  declare heading: string;
  declare body: string;
  declare confirmLabel: string;
  #resolve: ((answer: boolean) => void) | null = null;

  constructor() {
    super();
    new I18nController(this);
    this.heading = '';
    this.body = '';
    this.confirmLabel = '';
  }

  async ask(heading: string, body: string, confirmLabel: string): Promise<boolean> {
    this.#resolve?.(false);
    this.heading = heading;
    this.body = body;
    this.confirmLabel = confirmLabel;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog')!;
    openModal(dialog, dialog.querySelector<HTMLButtonElement>('.cancel'));
    return new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  #close(answer: boolean): void {
    this.renderRoot.querySelector('dialog')?.close();
    this.#resolve?.(answer);
    this.#resolve = null;
  }

  override render() {
    return html`<dialog aria-labelledby="confirm-title" @close=${() => this.#close(false)}>
      <div class="dialog-body">
        <h2 id="confirm-title">${this.heading}</h2>
        <p class="muted mt">${this.body}</p>
      </div>
      <div class="dialog-actions">
        <button class="cancel" @click=${() => this.#close(false)}>${t('common.cancel')}</button>
        <button class="primary danger-fill" @click=${() => this.#close(true)}>${this.confirmLabel}</button>
      </div>
    </dialog>`;
  }
}

customElements.define('diosc-confirm-dialog', ConfirmDialog);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-confirm-dialog': ConfirmDialog;
  }
}
