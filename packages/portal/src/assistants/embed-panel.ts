import type { AssistantView, EmbedView } from '@diosc/protocol';
import { html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { icons } from '../ui/icons.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { assistantStyles } from './assistant-styles.js';
import { serverProblem } from './form-problems.js';

/**
 * What to paste into a site: the hub's own snippet (command queue + `<script async>`) and ES module
 * import with this assistant's publishable key, each with a Copy button, and the hub's live preview.
 * The texts are the hub's, shown as text — the portal never assembles them itself.
 */
export class EmbedPanel extends LitElement {
  static override properties = {
    portal: { attribute: false },
    assistant: { attribute: false },
    embed: { state: true },
    error: { state: true },
    copied: { state: true },
  };
  static override styles = [sharedStyles, assistantStyles];
  declare portal: Portal;
  declare assistant: AssistantView;
  declare embed: EmbedView | null;
  declare error: string | null;
  declare copied: 'snippet' | 'esm' | 'strictSnippet' | null;

  constructor() {
    super();
    new I18nController(this);
    this.embed = null;
    this.error = null;
    this.copied = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.portal.assistants
      .embed(this.assistant.id)
      .then((embed) => {
        this.embed = embed;
      })
      .catch((error: unknown) => {
        this.error = serverProblem(error);
      });
  }

  async #copy(which: 'snippet' | 'esm' | 'strictSnippet'): Promise<void> {
    if (!this.embed) return;
    try {
      await navigator.clipboard.writeText(this.embed[which]);
      this.copied = which;
    } catch {
      // Clipboard refused: select the text so the owner can copy it by hand.
      const pre = this.renderRoot.querySelector(`#${which}`);
      if (pre) getSelection()?.selectAllChildren(pre);
    }
  }

  #block(which: 'snippet' | 'esm' | 'strictSnippet', heading: string, hint: string) {
    const embed = this.embed!;
    return html`<section class="card mt" aria-labelledby=${`${which}-heading`}>
      <div class="row"><h2 id=${`${which}-heading`}>${heading}</h2><span class="spacer"></span>
        <button type="button" id=${`copy-${which}`} @click=${() => void this.#copy(which)}>${icons.copy}${t('assistants.embed.copy')}</button></div>
      <p class="small muted mt">${hint}</p>
      <pre id=${which} class="mt" tabindex="0" aria-labelledby=${`${which}-heading`}>${embed[which]}</pre>
      <p class="small" role="status">${this.copied === which ? t('assistants.embed.copied') : nothing}</p>
    </section>`;
  }

  override render() {
    if (this.error) return html`<p class="notice error" role="alert">${this.error}</p>`;
    const embed = this.embed;
    if (!embed) return html`<p class="muted">${t('app.loading')}</p>`;
    return html`<section class="card" aria-labelledby="embed-heading">
        <h2 id="embed-heading">${t('assistants.embed.heading')}</h2>
        <p class="small muted mt">${t('assistants.embed.hint')}</p>
        <dl class="small mt">
          <dt>${t('assistants.embed.publishableKey')}</dt><dd class="mono" id="publishable-key">${embed.publishableKey}</dd>
          <dt>${t('assistants.embed.hubUrl')}</dt><dd class="mono">${embed.hubUrl}</dd>
        </dl>
        ${this.assistant.allowedOrigins.length === 0 ? html`<p class="notice warn">${t('assistants.embed.noOrigins')}</p>` : nothing}
        <p class="mt"><a class="btn" id="preview-link" href=${embed.previewUrl} target="_blank" rel="noopener">${icons.globe}${t('assistants.embed.preview')}</a></p>
      </section>
      ${this.#block('snippet', t('assistants.embed.snippetHeading'), t('assistants.embed.snippetHint'))}
      ${this.#block('esm', t('assistants.embed.esmHeading'), t('assistants.embed.esmHint'))}
      ${this.#block('strictSnippet', t('assistants.embed.strictHeading'), t('assistants.embed.strictHint', { policy: embed.strictPolicy }))}`;
  }
}

customElements.define('diosc-embed-panel', EmbedPanel);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-embed-panel': EmbedPanel;
  }
}
