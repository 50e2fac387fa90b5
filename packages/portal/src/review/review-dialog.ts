import { ApprovalGuard } from '@diosc/kit/approval-guard';
import { FocusOrigin } from '@diosc/kit/focus-origin';
import { html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { formatTime, I18nController, t } from '../i18n/i18n.js';
import { icons } from '../ui/icons.js';
import { openModal } from '../ui/modal.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { effectsStyles, effectsView } from './effects-view.js';
import { reviewDialogStyles } from './review-dialog-styles.js';
import type { PendingReview, ReviewDecider } from './review-provider.js';

/**
 * The mutation review form: the WebMCP adapter's `reviewer` made visible. It shows the actual
 * collection, item and effects from the provider's frozen receipt (kept in a private field, not a
 * public property), and approves only through `ApprovalGuard`. It never holds the pending promise:
 * it holds the one `ReviewDecider` the provider hands out, and settles by review id.
 *
 * A key press approves only if it began on an Approve button that the owner (Tab, pointer) or the
 * form's opening focused — not one a page script focused (the kit's `FocusOrigin`). The listeners
 * that lead to a decision are added with `addEventListener`, not template bindings, so nothing a
 * page script can walk (the element, its open shadow root, Lit's template parts) holds a function
 * that decides.
 */
export class ReviewDialog extends LitElement {
  static override properties = { portal: { attribute: false }, refusal: { state: true } };
  static override styles = [sharedStyles, effectsStyles, reviewDialogStyles];
  declare portal: Portal;
  declare refusal: boolean;
  #review: PendingReview | null = null;
  #decider: ReviewDecider | null = null;
  #deciding = false;
  readonly #guard = new ApprovalGuard();
  readonly #focus = new FocusOrigin();
  readonly #wired = new WeakSet<Element>();
  #unsubscribe: (() => void) | null = null;

  constructor() {
    super();
    new I18nController(this);
    this.refusal = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#decider ??= this.portal.reviews.claimDecider();
    this.#unsubscribe = this.portal.reviews.current.subscribe((review) => void this.#show(review));
    void this.#show(this.portal.reviews.current.value);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unsubscribe?.();
    // Teardown of the review UI: nothing may stay pending without a form to answer it.
    this.portal.reviews.cancel('teardown');
  }

  #dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector('dialog');
  }

  async #show(review: PendingReview | null): Promise<void> {
    const previous = this.#review;
    this.#review = review;
    this.#guard.reset();
    this.#focus.reset();
    this.refusal = false;
    this.requestUpdate();
    await this.updateComplete;
    const dialog = this.#dialog();
    if (!dialog) return;
    if (review && !dialog.open) {
      openModal(dialog, null);
      const reject = dialog.querySelector<HTMLButtonElement>('.reject');
      if (reject) this.#focus.place(reject);
    }
    if (!review && dialog.open) {
      dialog.close();
      // Settled elsewhere (cancelled by the agent, sign-out, a selection change): say so.
      if (previous && !this.#deciding) this.portal.toasts.show('info', t('review.withdrawn'));
    }
    this.#deciding = false;
  }

  override updated(): void {
    const dialog = this.#dialog();
    if (dialog) this.#wire(dialog);
  }

  /** Adds the listeners that can lead to a decision, once per element (see the class comment). */
  #wire(dialog: HTMLDialogElement): void {
    const once = (element: Element | null, wire: (element: Element) => void) => {
      if (!element || this.#wired.has(element)) return;
      this.#wired.add(element);
      wire(element);
    };
    const id = () => this.#review?.id ?? -1;
    once(dialog, () => {
      dialog.addEventListener('keydown', (event) => this.#focus.keydown(event), true);
      dialog.addEventListener('keyup', (event) => this.#focus.keyup(event), true);
      dialog.addEventListener('pointerdown', (event) => this.#focus.pointerdown(event), true);
      dialog.addEventListener(
        'pointerup',
        (event) => {
          this.#focus.pointerup();
          this.#guard.release(event, dialog.querySelector('button.approve'));
        },
        true,
      );
      dialog.addEventListener('focusin', (event) => this.#focus.focusin(event));
      dialog.addEventListener('cancel', () => this.#decide('reject'));
    });
    once(dialog.querySelector('form'), (form) =>
      form.addEventListener('submit', (event) => this.#submit(event as SubmitEvent)),
    );
    once(dialog.querySelector('button.reject'), (button) =>
      button.addEventListener('click', () => this.#decide('reject')),
    );
    once(dialog.querySelector('button.approve'), (button) => {
      button.addEventListener('pointerdown', (event) => this.#guard.input(event, id()));
      button.addEventListener('keydown', (event) => {
        // The press must begin here, on focus the owner or the opening put here.
        if ((event as KeyboardEvent).repeat) return;
        // Focus a script put here: this press ends any earlier arming rather than using it.
        if (!this.#focus.placedOn(button)) return this.#guard.reset();
        this.#guard.input(event, id());
      });
      button.addEventListener('click', (event) => this.#guard.click(event, id()));
    });
  }

  #decide(decision: 'accept' | 'reject'): void {
    const review = this.#review;
    if (!review) return;
    this.#deciding = true;
    this.#decider?.decide(review.id, decision);
    this.portal.toasts.show(
      decision === 'accept' ? 'success' : 'info',
      t(decision === 'accept' ? 'review.accepted' : 'review.rejected'),
    );
  }

  #submit(event: SubmitEvent): void {
    event.preventDefault();
    const review = this.#review;
    if (!review) return;
    if (this.#guard.approves(event, this.renderRoot.querySelector('.approve'), review.id))
      this.#decide('accept');
    else this.refusal = true;
  }

  override render() {
    const review = this.#review;
    return html`<dialog
      aria-labelledby="review-title"
      aria-describedby="review-summary"
    >
      ${review ? this.#body(review) : nothing}
    </dialog>`;
  }

  #body(review: PendingReview) {
    const { receipt } = review;
    const { effects } = receipt;
    return html`<form>
      <div class="dialog-body">
        <div class="row">
          <span class="shield">${icons.shield}</span>
          <h2 id="review-title">${t('review.title')}</h2>
          <span class="spacer"></span>
          <span class="badge ${effects.action === 'delete' ? 'danger' : 'warn'}">${t(`review.action.${effects.action}`)}</span>
        </div>
        <p id="review-summary" class="mt">${t(`review.summary.${effects.action}`, { item: effects.item, collection: effects.collection.title })}</p>
        <dl>
          <dt>${t('review.collection')}</dt>
          <dd>${effects.collection.title} <span class="mono muted">${effects.collection.id}</span> · ${t(`kinds.${effects.collection.kind}`)}</dd>
          <dt>${t('review.item')}</dt>
          <dd class="mono">${effects.item}</dd>
          <dt>${t('review.tool')}</dt>
          <dd class="mono">${receipt.tool}</dd>
          <dt>${t('review.requestId')}</dt>
          <dd class="mono">${String(receipt.input.requestId ?? '—')}</dd>
          <dt>${t('review.expires')}</dt>
          <dd>${formatTime(receipt.expiresAt, { seconds: true })}</dd>
        </dl>
        ${effectsView(receipt)}
        <details>
          <summary>${t('review.exactArguments')}</summary>
          <pre class="args">${JSON.stringify(receipt.input, null, 2)}</pre>
        </details>
        <p class="small muted mt">${t('review.untrusted')}</p>
        ${this.refusal ? html`<p class="notice error mt" role="alert">${t('review.needsRealInput')}</p>` : nothing}
      </div>
      <div class="dialog-actions">
        <button type="button" class="reject">${t('review.reject')}</button>
        <button type="submit" class="approve primary">
          ${t(effects.action === 'delete' ? 'review.approveDelete' : 'review.approve')}
        </button>
      </div>
    </form>`;
  }
}

customElements.define('diosc-review-dialog', ReviewDialog);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-review-dialog': ReviewDialog;
  }
}
