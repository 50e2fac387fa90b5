import { css, html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import type { SignedOutNotice } from '../session/session-store.js';
import { errorText } from '../ui/error-text.js';
import { icons } from '../ui/icons.js';
import { sharedStyles } from '../ui/shared-styles.js';
import '../ui/language-switch.js';

/** Email + password sign-in. Errors are the server's stable codes, in the owner's language. */
export class SignInPage extends LitElement {
  static override properties = {
    portal: { attribute: false },
    notice: { attribute: false },
    error: { state: true },
    busy: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .wrap {
        min-height: 100vh;
        display: grid;
        place-items: center;
        padding: 2rem 1rem;
        background:
          radial-gradient(60rem 30rem at 10% -10%, var(--accent-soft), transparent 60%),
          var(--bg);
      }
      .panel {
        width: min(420px, 100%);
      }
      .brand {
        display: flex;
        align-items: center;
        gap: 0.55rem;
        font-weight: 800;
        font-size: 1.3rem;
        margin-bottom: 1.25rem;
      }
      .brand svg {
        color: var(--accent);
        width: 26px;
        height: 26px;
      }
      .card {
        padding: 1.75rem;
      }
      h1 {
        font-size: 1.35rem;
        margin-bottom: 0.3rem;
      }
      form {
        margin-top: 1.25rem;
      }
      button.primary {
        width: 100%;
        justify-content: center;
        padding: 0.65rem;
      }
      .notice {
        margin-top: 1rem;
      }
      .foot {
        display: flex;
        justify-content: space-between;
        align-items: center;
        margin-top: 1rem;
      }
    `,
  ];
  declare portal: Portal;
  declare notice: SignedOutNotice | null;
  declare error: string | null;
  declare busy: boolean;

  constructor() {
    super();
    new I18nController(this);
    this.notice = null;
    this.error = null;
    this.busy = false;
  }

  override firstUpdated(): void {
    this.renderRoot.querySelector<HTMLInputElement>('#email')?.focus();
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    // The button stays focusable while busy (aria-disabled), so a second press is ignored here.
    if (this.busy) return;
    const form = new FormData(event.target as HTMLFormElement);
    this.busy = true;
    this.error = null;
    try {
      await this.portal.session.signIn(String(form.get('email') ?? ''), String(form.get('password') ?? ''));
      if (this.portal.router.route.value.page === 'sign-in')
        this.portal.router.navigate('/', { replace: true });
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const invalid = this.error ? 'true' : 'false';
    const described = this.error ? 'sign-in-error' : nothing;
    return html`<div class="wrap">
      <div class="panel">
        <header class="brand">${icons.shield}<span>Diosc</span></header>
        <main class="card">
          <h1>${t('signIn.title')}</h1>
          <p class="muted">${t('signIn.subtitle')}</p>
          ${this.notice ? html`<p class="notice warn" role="status">${t(`signIn.notice.${this.notice}`)}</p>` : nothing}
          <form @submit=${this.#submit}>
            <div class="field">
              <label for="email">${t('signIn.email')}</label>
              <input id="email" name="email" type="email" autocomplete="username" required
                aria-invalid=${invalid} aria-describedby=${described} />
            </div>
            <div class="field">
              <label for="password">${t('signIn.password')}</label>
              <input id="password" name="password" type="password" autocomplete="current-password" required
                aria-invalid=${invalid} aria-describedby=${described} />
            </div>
            ${this.error ? html`<p id="sign-in-error" class="notice error" role="alert">${this.error}</p>` : nothing}
            <button class="primary" type="submit" aria-disabled=${this.busy ? 'true' : 'false'}>
              ${this.busy ? t('signIn.busy') : t('signIn.submit')}
            </button>
          </form>
        </main>
        <footer class="foot"><span class="small muted">${t('signIn.selfHosted')}</span><diosc-language-switch></diosc-language-switch></footer>
      </div>
    </div>`;
  }
}

customElements.define('diosc-sign-in-page', SignInPage);
