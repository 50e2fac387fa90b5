import { html, LitElement, nothing } from 'lit';
import type { KitContext } from '../kit-context.js';
import { kitOf } from '../widget/element-kit.js';
import { StoreController } from '../widget/store-controller.js';
import { ApprovalGuard } from './approval-guard.js';
import type { ApprovalRequest, Decision } from './consensus-broker.js';
import { consensusDetail } from './consensus-detail.js';
import { dialogStyles } from './consensus-dialog-styles.js';
import { deepActiveElement } from './deep-active-element.js';
import { editFields, readEdit, renderEditForm } from './edit-form.js';
import { FocusOrigin } from './focus-origin.js';

type Mode = 'review' | 'edit' | 'reject';

/**
 * The consensus dialog — always the kit's own. It resolves every approval (intents and the hub's
 * Consensus requests) and accepts a decision only through `ApprovalGuard`: a trusted pointer or key
 * activation of the submitting button followed by a trusted submit, so a script's `button.click()`,
 * `requestSubmit()` or a synthetic event decides nothing. A `consensusView` restyles only the detail
 * body, which sits outside the form: it cannot add, replace or press the decision buttons.
 *
 * A key press approves only if it began on a decision button that the person (Tab, pointer) or the
 * dialog's opening focused — not one a script focused (`FocusOrigin`). The decision listeners are
 * added with `addEventListener`, not template bindings, so no object a page script can walk (the
 * element, its open shadow root, Lit's template parts) holds a function that decides; the kit
 * itself is not a property of the element either (`kitOf`).
 */
export class ConsensusDialog extends LitElement {
  static override properties = { mode: { state: true }, problem: { state: true } };
  static override styles = dialogStyles;
  declare mode: Mode;
  declare problem: string | null;
  readonly #guard = new ApprovalGuard();
  readonly #focus = new FocusOrigin();
  readonly #wired = new WeakSet<Element>();
  readonly #shown = new StoreController(this, () => kitOf(this)?.consensus.shown);
  #request: ApprovalRequest | null = null;
  #reviewId = 0;
  #returnFocus: HTMLElement | null = null;

  constructor() {
    super();
    this.mode = 'review';
    this.problem = null;
  }

  get #kit(): KitContext {
    return kitOf(this) as KitContext;
  }

  override willUpdate(): void {
    const request = this.#shown.value ?? null;
    if (request === this.#request) return;
    this.#request = request;
    this.#reviewId++;
    this.#guard.reset();
    this.#focus.reset();
    this.mode = 'review';
    this.problem = null;
  }

  override updated(changed: Map<string, unknown>): void {
    const dialog = this.renderRoot.querySelector('dialog');
    if (!dialog) return;
    this.#wire(dialog);
    if (this.#request && !dialog.open) {
      // Focus on <body> is no place to return to: the launcher is, then.
      const active = deepActiveElement();
      this.#returnFocus = active === document.body ? null : active;
      dialog.showModal();
      this.#placeFirst(dialog);
    } else if (!this.#request && dialog.open) {
      dialog.close();
      // Back where the person was (the composer, the launcher), never to the page's <body>.
      const back = this.#returnFocus;
      this.#returnFocus = null;
      if (back?.isConnected) back.focus();
      else (this.getRootNode() as ShadowRoot).querySelector<HTMLElement>('.launcher')?.focus();
    } else if (changed.has('mode')) this.#placeFirst(dialog);
  }

  /** Focus on the first thing to do in this mode: the reason, the first field, or the first action. */
  #placeFirst(dialog: HTMLDialogElement): void {
    const first =
      this.mode === 'review'
        ? dialog.querySelector<HTMLElement>('.actions button')
        : dialog.querySelector<HTMLElement>('form textarea, form input, form select');
    if (first) this.#focus.place(first);
  }

  /** Adds the listeners that can lead to a decision, once per element (see the class comment). */
  #wire(dialog: HTMLDialogElement): void {
    const once = (element: Element | null, wire: (element: Element) => void) => {
      if (!element || this.#wired.has(element)) return;
      this.#wired.add(element);
      wire(element);
    };
    once(dialog, () => {
      dialog.addEventListener('keydown', (event) => this.#focus.keydown(event), true);
      dialog.addEventListener('keyup', (event) => this.#focus.keyup(event), true);
      dialog.addEventListener('pointerdown', (event) => this.#focus.pointerdown(event), true);
      dialog.addEventListener(
        'pointerup',
        (event) => {
          this.#focus.pointerup();
          this.#guard.release(event, dialog.querySelector('button[type="submit"]'));
        },
        true,
      );
      dialog.addEventListener('focusin', (event) => this.#focus.focusin(event));
    });
    once(dialog.querySelector('form'), (form) =>
      form.addEventListener('submit', (event) => this.#decide(event as SubmitEvent)),
    );
    once(dialog.querySelector('button[type="submit"]'), (button) => {
      button.addEventListener('pointerdown', (event) => this.#guard.input(event, this.#reviewId));
      button.addEventListener('keydown', (event) => {
        // The press must begin here, on focus the person or the opening put here.
        if ((event as KeyboardEvent).repeat) return;
        // Focus a script put here: this press ends any earlier arming rather than using it.
        if (!this.#focus.placedOn(button)) return this.#guard.reset();
        this.#guard.input(event, this.#reviewId);
      });
      button.addEventListener('click', (event) => this.#guard.click(event, this.#reviewId));
    });
  }

  #decide(event: SubmitEvent): void {
    event.preventDefault();
    const request = this.#request;
    const form = event.target as HTMLFormElement;
    if (!request) return;
    if (!this.#guard.approves(event, form.querySelector('button[type="submit"]'), this.#reviewId)) {
      this.problem = this.#kit.translator.t('consensus.needsRealInput');
      return;
    }
    let decision: Decision;
    if (this.mode === 'reject') {
      const reason = (form.elements.namedItem('reason') as HTMLTextAreaElement).value.trim().slice(0, 1_000);
      decision = { outcome: 'reject', ...(reason ? { reason } : {}) };
    } else if (this.mode === 'edit') {
      const edited = readEdit(form, request.schema, request.args, this.#kit.translator.t);
      if ('error' in edited) {
        this.problem = edited.error;
        return;
      }
      decision = { outcome: 'edit', args: edited.args, changed: edited.changed };
    } else decision = { outcome: 'approve' };
    this.#kit.consensus.decide(request.id, decision);
  }

  #mode(mode: Mode): void {
    this.mode = mode;
    this.problem = null;
    this.#guard.reset();
  }

  #submitButton(label: string, kind: string) {
    return html`<button type="submit" class="primary ${kind}" part="decide-button">${label}</button>`;
  }

  #actions(request: ApprovalRequest) {
    const t = this.#kit.translator.t;
    if (this.mode === 'reject')
      return html`<div class="field"><label for="reason">${t('consensus.reason')}</label><textarea id="reason" name="reason" rows="2" maxlength="1000"></textarea></div>
        <div class="actions"><button type="button" @click=${() => this.#mode('review')}>${t('consensus.back')}</button>${this.#submitButton(t('consensus.confirmReject'), 'danger')}</div>`;
    if (this.mode === 'edit')
      return html`<p class="muted">${t('consensus.editHint')}</p>${renderEditForm(request.schema, request.args, t)}
        <div class="actions"><button type="button" @click=${() => this.#mode('review')}>${t('consensus.back')}</button>${this.#submitButton(t('consensus.runEdited'), 'edit')}</div>`;
    const editable = editFields(request.schema) !== null || Object.keys(request.schema).length > 0;
    return html`<div class="actions">
      <button type="button" class="reject" @click=${() => this.#mode('reject')}>${t('consensus.reject')}</button>
      ${editable ? html`<button type="button" class="edit" @click=${() => this.#mode('edit')}>${t('consensus.edit')}</button>` : nothing}
      ${this.#submitButton(t('consensus.approve'), 'approve')}
    </div>`;
  }

  override render() {
    const request = this.#request;
    const t = kitOf(this)?.translator.t;
    return html`<dialog
      class="card"
      part="consensus-dialog"
      aria-labelledby="consensus-title"
      aria-describedby="consensus-intro"
      @cancel=${(event: Event) => {
        event.preventDefault();
        this.#kit.consensus.dismiss();
      }}
    >
      ${
        request && t
          ? html`<div class="head">
              <span class="badge ${request.severity}" part="severity-badge">${t(`consensus.severity.${request.severity}`)}</span>
              <span class="where muted">${t(`consensus.where.${request.source}`)} · <code>${request.tool}</code></span>
            </div>
            <h2 id="consensus-title">${request.summary}</h2>
            <p id="consensus-intro" class="muted">${t('consensus.intro')}</p>
            <div class="detail" part="consensus-detail">${consensusDetail(this.#kit, request)}</div>
            <form novalidate>
              ${this.#actions(request)}
              ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
            </form>
            <small>${t('consensus.escape')}</small>`
          : nothing
      }
    </dialog>`;
  }
}
