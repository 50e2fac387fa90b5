import { findDescriptor } from '@diosc/protocol';
import { css, html, LitElement } from 'lit';
import { I18nController, t } from '../i18n/i18n.js';
import { sharedStyles } from '../ui/shared-styles.js';

/** The tools currently registered with the browser, with what each may do. */
export class ToolList extends LitElement {
  static override properties = { tools: { attribute: false } };
  static override styles = [
    sharedStyles,
    css`
      ul {
        list-style: none;
        padding: 0;
        margin: 0.75rem 0 0;
        display: grid;
        gap: 0.5rem;
      }
      li {
        display: flex;
        align-items: center;
        gap: 0.75rem;
        padding: 0.6rem 0.75rem;
        border: 1px solid var(--border);
        border-radius: var(--radius-sm);
      }
      code {
        font: 0.82rem var(--mono);
        color: var(--muted);
      }
      .grow {
        flex: 1;
        display: grid;
      }
    `,
  ];
  declare tools: string[];

  constructor() {
    super();
    new I18nController(this);
    this.tools = [];
  }

  override render() {
    if (this.tools.length === 0) return html`<p class="muted mt">${t('automation.tools.none')}</p>`;
    return html`<ul aria-label=${t('automation.tools.heading')}>
      ${this.tools.map((name) => {
        const hints = findDescriptor(name)?.hints;
        return html`<li data-tool=${name}>
          <span class="grow"><strong>${t(`functions.${name}.name`)}</strong><code>${name}</code></span>
          ${
            hints?.readOnly
              ? html`<span class="badge ok">${t('automation.tools.readOnly')}</span>`
              : html`<span class="badge warn">${t('automation.tools.reviewed')}</span>`
          }
        </li>`;
      })}
    </ul>`;
  }
}

customElements.define('diosc-tool-list', ToolList);
