import { html, LitElement, nothing } from 'lit';
import { I18nController, t } from '../i18n/i18n.js';
import { PATHS } from '../router/router.js';
import { ObserveController } from '../state/observable.js';
import { icons } from '../ui/icons.js';
import { sharedStyles } from '../ui/shared-styles.js';
import type { Portal } from './portal.js';
import './side-nav.js';
import '../ui/language-switch.js';
import '../ui/toast-region.js';
import '../pages/sign-in-page.js';
import '../collections/collections-page.js';
import '../apps/connected-apps-page.js';
import '../automation/automation-hub-page.js';
import '../assistants/assistants-page.js';
import '../review/review-dialog.js';
import '../palette/command-palette.js';
import { bindShortcuts } from '../shortcuts/shortcuts.js';
import { appRootStyles } from './app-root-styles.js';

/** The signed-in frame (navigation, top bar, page) or the sign-in page, by session state. */
export class AppRoot extends LitElement {
  static override properties = { portal: { attribute: false } };
  static override styles = [sharedStyles, appRootStyles];
  declare portal: Portal;
  #unbind: (() => void) | null = null;

  constructor() {
    super();
    new I18nController(this);
    new ObserveController(this, () => [this.portal.session.state, this.portal.router.route]);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unbind = bindShortcuts({
      openPalette: () => this.#palette()?.open(),
      navigate: (path) => this.portal.router.navigate(path),
      enabled: () => this.portal.session.state.value.status === 'signed-in',
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unbind?.();
  }

  #lastPage: string | null = null;
  #lastStatus: string | null = null;

  /**
   * After a move to another page (nav, `g h`, palette) and after signing in, focus goes to the new
   * page's main region — never left on an element that is gone (which drops it to <body>).
   */
  override updated(): void {
    const state = this.portal.session.state.value;
    const page =
      state.status === 'signed-out' || state.status === 'loading'
        ? null
        : this.portal.router.route.value.page;
    const signedIn = this.#lastStatus === 'signed-out' && state.status === 'signed-in';
    if (page && ((this.#lastPage && page !== this.#lastPage) || signedIn)) this.focusMain();
    this.#lastPage = page;
    this.#lastStatus = state.status;
  }

  focusMain(): void {
    this.renderRoot.querySelector<HTMLElement>('main')?.focus({ preventScroll: true });
  }

  #palette() {
    return this.renderRoot.querySelector('diosc-command-palette');
  }

  override render() {
    const { session, router } = this.portal;
    const state = session.state.value;
    if (state.status === 'loading') {
      return html`<div class="splash" role="status">${t('app.loading')}</div>`;
    }
    if (state.status === 'signed-out') {
      return html`<diosc-sign-in-page .portal=${this.portal} .notice=${state.notice}></diosc-sign-in-page>
        <diosc-toast-region .portal=${this.portal}></diosc-toast-region>`;
    }
    const account = state.status === 'signed-in' ? state.session.account : state.account;
    const route = router.route.value;
    // The skip link is the first Tab stop; it sits in the first landmark, so no content is outside one.
    return html`<div class="frame">
      <div class="side-col"><aside>
        <a class="skip-link" href="#main" @click=${(event: Event) => {
          event.preventDefault();
          this.focusMain();
        }}>${t('app.skipToContent')}</a>
        <a class="brand" href=${PATHS.collections}>${icons.shield}<span>Diosc</span></a>
        <diosc-side-nav .page=${route.page}></diosc-side-nav>
        <p class="hint small muted">${t('app.shortcutHint')}</p>
      </aside></div>
      <div class="main">
        <header>
          <button class="palette-button" @click=${() => this.#palette()?.open()} aria-keyshortcuts="Control+K Meta+K">
            ${icons.search}<span class="label">${t('palette.open')}</span><kbd>Ctrl K</kbd>
          </button>
          <span class="spacer"></span>
          <diosc-language-switch></diosc-language-switch>
          <span class="account small muted" title=${account.email}>${account.displayName || account.email}</span>
          <button class="ghost" @click=${() => void this.portal.signOut()}>${icons.signOut}${t('app.signOut')}</button>
        </header>
        <main id="main" tabindex="-1">
          ${state.status === 'expired' ? this.#expiredBanner() : nothing}
          ${this.#page()}
        </main>
      </div>
    </div>
    <diosc-review-dialog .portal=${this.portal}></diosc-review-dialog>
    <diosc-command-palette .portal=${this.portal} @palette-navigated=${() => this.focusMain()}></diosc-command-palette>
    <diosc-toast-region .portal=${this.portal}></diosc-toast-region>`;
  }

  #expiredBanner() {
    return html`<div class="notice warn expired" role="alert">
      <span>${t('session.expiredBanner')}</span>
      <button class="primary" @click=${() => this.#signInAgain()}>${t('session.signInAgain')}</button>
    </div>`;
  }

  #signInAgain(): void {
    this.portal.session.state.set({ status: 'signed-out', notice: 'expired' });
  }

  #page() {
    const route = this.portal.router.route.value;
    switch (route.page) {
      case 'collections':
        return html`<diosc-collections-page .portal=${this.portal} .collection=${route.collection} .item=${route.item}></diosc-collections-page>`;
      case 'connected-apps':
        return html`<diosc-connected-apps-page .portal=${this.portal}></diosc-connected-apps-page>`;
      case 'assistants':
        return html`<diosc-assistants-page .portal=${this.portal} .assistant=${route.assistant} .section=${route.section} .conversation=${route.conversation}></diosc-assistants-page>`;
      case 'automation-hub':
        return html`<diosc-automation-hub-page .portal=${this.portal}></diosc-automation-hub-page>`;
      case 'sign-in':
        // Already signed in: the sign-in URL leads to the default page.
        queueMicrotask(() => this.portal.router.navigate(PATHS.collections, { replace: true }));
        return nothing;
      default:
        return html`<div class="card"><h1>${t('app.notFoundTitle')}</h1><p class="muted">${t('app.notFoundBody')}</p></div>`;
    }
  }
}

customElements.define('diosc-app', AppRoot);
