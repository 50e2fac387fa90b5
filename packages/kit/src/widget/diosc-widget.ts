import type { FileDescriptor } from '@diosc/protocol';
import { html, LitElement, nothing } from 'lit';
import { errorText } from '../browser-calls/browser-call.js';
import { type ConversationState, isTurnActive } from '../conversation/conversation-state.js';
import { downloadFile } from '../files/upload-file.js';
import { emit, type KitContext } from '../kit-context.js';
import { kitOf } from './element-kit.js';
import { icons } from './icons.js';
import { loadParser } from './markdown/load-parser.js';
import { messageView } from './message-view.js';
import { StoreController } from './store-controller.js';
import { widgetStyles } from './widget-styles.js';

/**
 * The widget: a launcher and the conversation panel, in a shadow DOM. It renders the kit's state
 * (through controllers on the kit's stores) and hosts the one consensus dialog, which stays usable
 * while the panel is closed. The kit is not a property of the element (see `element-kit.ts`). Theme with `--diosc-*` custom properties and `::part(...)`.
 */
export class DioscWidget extends LitElement {
  static override styles = widgetStyles;
  readonly #state = new StoreController(this, () => kitOf(this)?.state);
  readonly #open = new StoreController(this, () => kitOf(this)?.open);
  readonly #pending = new StoreController(this, () => kitOf(this)?.consensus.pending);
  readonly #shown = new StoreController(this, () => kitOf(this)?.consensus.shown);
  #problem: string | null = null;
  #wasOpen = false;
  #focusOnChange = false;

  get #kit(): KitContext {
    return kitOf(this) as KitContext;
  }

  #download = (file: FileDescriptor) => {
    const session = this.#kit.session;
    if (!session) return;
    downloadFile(session.client, file).catch((error: unknown) => {
      this.#problem = this.#kit.translator.t('file.failed', { message: errorText(error) });
      emit(this.#kit, 'error', { code: 'file_delivery_failed', message: errorText(error) });
      this.requestUpdate();
    });
  };

  override firstUpdated(): void {
    // After the launcher is drawn: the assistant's text is redrawn as markdown when the parser is here.
    loadParser().then(
      () => this.requestUpdate(),
      (error: unknown) =>
        console.warn('[diosc] replies show as written: the markdown parser did not load', error),
    );
  }

  override updated(): void {
    const list = this.renderRoot.querySelector('.messages');
    list?.scrollTo?.({ top: list.scrollHeight });
    const open = this.#open.value ?? false;
    if (open === this.#wasOpen) return;
    this.#wasOpen = open;
    // Only a change the person made with the widget moves focus: never on the page's load.
    if (!this.#focusOnChange) return;
    this.#focusOnChange = false;
    if (open) void this.#focusComposer();
    else this.renderRoot.querySelector<HTMLElement>('.launcher')?.focus();
  }

  /** Opened, focus goes where the person will type: the launcher sits after the panel, so Tab would leave. */
  async #focusComposer(): Promise<void> {
    const composer = this.renderRoot.querySelector('diosc-composer') as
      | (HTMLElement & { updateComplete?: Promise<unknown> })
      | null;
    await composer?.updateComplete;
    composer?.shadowRoot?.querySelector<HTMLElement>('textarea')?.focus();
  }

  #toggle(open: boolean): void {
    this.#focusOnChange = true;
    this.#kit.open.set(open);
  }

  #status(state: ConversationState) {
    const t = this.#kit.translator.t;
    const { connection, error } = state;
    if (connection === 'error')
      return html`<div class="status error" role="alert">${t('status.error', { message: error?.message ?? '' })}
        <button type="button" @click=${() => this.#kit.session?.retry()}>${t('status.retry')}</button></div>`;
    if (connection === 'connecting' || connection === 'reconnecting' || connection === 'offline')
      return html`<div class="status ${connection}" role="status">${t(`status.${connection}`)}</div>`;
    return nothing;
  }

  #panel(state: ConversationState) {
    const t = this.#kit.translator;
    const pending = this.#pending.value ?? [];
    const assistant = state.assistant;
    const draft = state.draft;
    const links = { outsideLinks: assistant?.outsideLinks === true };
    // A status line's role sits on a span inside its item: an <li> with another role is no longer
    // a list item, and a list of them is no list (axe "list", serious).
    return html`<section class="panel card" part="panel" id="diosc-panel" aria-labelledby="diosc-title">
      <header part="header">
        <div><h2 id="diosc-title">${assistant?.name ?? t.t('panel.title')}</h2>
          ${assistant?.modelLabel ? html`<small>${t.t('panel.model', { label: assistant.modelLabel })}</small>` : nothing}</div>
        <button type="button" class="close" aria-label=${t.t('panel.close')} @click=${() => this.#toggle(false)}>${icons.close}</button>
      </header>
      ${this.#status(state)}
      <ol class="messages" tabindex="0" aria-labelledby="diosc-title" aria-live="polite" aria-relevant="additions text">
        ${state.messages.length === 0 && !draft ? html`<li class="empty">${t.t('panel.empty')}</li>` : nothing}
        ${state.messages.map((message) => messageView(message, t, this.#download, links))}
        ${draft && (draft.text || draft.tools.length || draft.files.length) ? messageView({ role: 'assistant', ...draft }, t, this.#download, links, true) : nothing}
        ${isTurnActive(state) && !draft?.text ? html`<li class="working"><span role="status">${t.t('turn.working')}</span></li>` : nothing}
        ${state.notice ? html`<li class="notice ${state.notice.kind}"><span role="status">${state.notice.kind === 'failed' ? t.t('turn.failed', { message: state.notice.message ?? '' }) : t.t('turn.cancelled')}</span></li>` : nothing}
      </ol>
      ${
        pending.length > 0 && !this.#shown.value
          ? html`<div class="approvals" role="status">${t.t('approvals.waiting', { count: pending.length })}
            <button type="button" @click=${() => this.#kit.consensus.reopen()}>${t.t('approvals.review')}</button></div>`
          : nothing
      }
      ${this.#problem ? html`<p class="problem" role="alert">${this.#problem}</p>` : nothing}
      <diosc-composer></diosc-composer>
    </section>`;
  }

  override render() {
    const state = this.#state.value;
    if (!kitOf(this) || !state) return nothing;
    const open = this.#open.value ?? false;
    const t = this.#kit.translator.t;
    return html`${open ? this.#panel(state) : nothing}
      <button type="button" class="launcher primary" part="launcher" aria-expanded=${open ? 'true' : 'false'} aria-controls="diosc-panel"
        aria-label=${t(open ? 'launcher.close' : 'launcher.open')} @click=${() => this.#toggle(!open)}>
        ${open ? icons.close : icons.chat}
        ${(this.#pending.value?.length ?? 0) > 0 ? html`<span class="dot" aria-hidden="true"></span>` : nothing}
      </button>
      <diosc-consensus-dialog></diosc-consensus-dialog>`;
  }
}
