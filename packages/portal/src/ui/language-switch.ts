import { css, html, LitElement } from 'lit';
import { currentLanguage, I18nController, LANGUAGES, type Language, setLanguage, t } from '../i18n/i18n.js';
import { sharedStyles } from './shared-styles.js';

/** A labelled language picker; the choice is remembered for the next visit. */
export class LanguageSwitch extends LitElement {
  static override styles = [
    sharedStyles,
    css`
      select {
        width: auto;
        padding: 0.35rem 0.5rem;
        font-size: 0.85rem;
      }
    `,
  ];

  constructor() {
    super();
    new I18nController(this);
  }

  override render() {
    const language = currentLanguage();
    return html`<label class="visually-hidden" for="language">${t('language.label')}</label>
      <select
        id="language"
        @change=${(event: Event) => void setLanguage((event.target as HTMLSelectElement).value as Language)}
      >
        ${LANGUAGES.map(
          (code) =>
            html`<option value=${code} ?selected=${code === language}>${t(`language.${code}`)}</option>`,
        )}
      </select>`;
  }
}

customElements.define('diosc-language-switch', LanguageSwitch);
