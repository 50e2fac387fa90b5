import type { FileDescriptor } from '@diosc/protocol';
import { html, LitElement, nothing } from 'lit';
import { errorText } from '../browser-calls/browser-call.js';
import { isTurnActive } from '../conversation/conversation-state.js';
import { uploadFile } from '../files/upload-file.js';
import type { KitContext } from '../kit-context.js';
import { kitOf } from './element-kit.js';
import { icons } from './icons.js';
import { StoreController } from './store-controller.js';
import { composerStyles } from './widget-styles.js';

interface Attachment {
  key: number;
  name: string;
  file: FileDescriptor | null;
  error: string | null;
}

/**
 * The message box: text, Send / Stop, and the file picker (button, drag and drop, paste). Attached
 * files go through the same upload path as files a tool returns, so the same session and the
 * assistant's file permission apply; the message carries only their ids.
 */
export class DioscComposer extends LitElement {
  static override properties = {
    attachments: { state: true },
    problem: { state: true },
    dragging: { state: true },
  };
  static override styles = composerStyles;
  declare attachments: Attachment[];
  declare problem: string | null;
  declare dragging: boolean;
  readonly #state = new StoreController(this, () => kitOf(this)?.state);
  #next = 0;

  get #kit(): KitContext {
    return kitOf(this) as KitContext;
  }

  constructor() {
    super();
    this.attachments = [];
    this.problem = null;
    this.dragging = false;
  }

  /** Uploads files the visitor picked, dropped or pasted. */
  async attach(files: Iterable<File>): Promise<void> {
    const session = this.#kit.session;
    if (!session) return;
    for (const blob of files) {
      const entry: Attachment = { key: this.#next++, name: blob.name, file: null, error: null };
      this.attachments = [...this.attachments, entry];
      let result: Awaited<ReturnType<typeof uploadFile>>;
      try {
        result = await uploadFile(session.client, {
          blob,
          filename: blob.name,
          conversationId: await session.ensureConversation(),
        });
      } catch (error) {
        result = { ok: false, error: errorText(error) };
      }
      const done = result.ok ? { ...entry, file: result.file } : { ...entry, error: result.error };
      this.attachments = this.attachments.map((each) => (each.key === entry.key ? done : each));
    }
  }

  async #send(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const box = form.elements.namedItem('text') as HTMLTextAreaElement;
    const text = box.value.trim();
    const files = this.attachments.flatMap((each) => (each.file ? [each.file] : []));
    if (!text || !this.#kit.session || this.attachments.some((each) => !each.file && !each.error)) return;
    this.problem = null;
    try {
      await this.#kit.session.send(text, files);
      box.value = '';
      this.attachments = [];
    } catch (error) {
      this.problem = errorText(error);
    }
  }

  #keydown(event: KeyboardEvent): void {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      (event.target as HTMLTextAreaElement).form?.requestSubmit();
    }
  }

  #drop(event: DragEvent): void {
    event.preventDefault();
    this.dragging = false;
    if (event.dataTransfer?.files.length) void this.attach(event.dataTransfer.files);
  }

  #paste(event: ClipboardEvent): void {
    const files = event.clipboardData?.files;
    if (files?.length) {
      event.preventDefault();
      void this.attach(files);
    }
  }

  override render() {
    if (!kitOf(this)) return nothing;
    const t = this.#kit.translator.t;
    const state = this.#state.value;
    const busy = state ? isTurnActive(state) : false;
    const filesOn = state?.assistant?.files.enabled ?? false;
    return html`<form part="composer" class=${this.dragging ? 'dragging' : ''} @submit=${this.#send}
      @dragover=${(event: DragEvent) => {
        if (!filesOn) return;
        event.preventDefault();
        this.dragging = true;
      }}
      @dragleave=${() => (this.dragging = false)} @drop=${(event: DragEvent) => filesOn && this.#drop(event)}>
      ${
        this.attachments.length > 0
          ? html`<ul class="attachments">${this.attachments.map(
              (each) => html`<li class=${each.error ? 'failed' : each.file ? 'ready' : 'uploading'}>
        ${each.error ? t('composer.uploadFailed', { name: each.name, message: each.error }) : each.file ? each.name : t('composer.uploading', { name: each.name })}
        <button type="button" aria-label=${t('composer.remove', { name: each.name })} @click=${() => (this.attachments = this.attachments.filter((other) => other !== each))}>×</button></li>`,
            )}</ul>`
          : nothing
      }
      ${this.dragging ? html`<p class="drop">${t('composer.drop')}</p>` : nothing}
      <div class="row">
        <textarea name="text" rows="2" aria-label=${t('composer.label')} placeholder=${t('composer.placeholder')} maxlength="16000"
          @keydown=${this.#keydown} @paste=${(event: ClipboardEvent) => filesOn && this.#paste(event)}></textarea>
        ${
          filesOn
            ? html`<button type="button" class="attach" aria-label=${t('composer.attach')} title=${t('composer.attach')}
          @click=${() => this.renderRoot.querySelector<HTMLInputElement>('input[type=file]')?.click()}>${icons.attach}</button>
          <input type="file" multiple hidden @change=${(event: Event) => {
            const input = event.target as HTMLInputElement;
            if (input.files) void this.attach([...input.files]);
            input.value = '';
          }} />`
            : nothing
        }
        ${
          busy
            ? html`<button type="button" class="stop danger" part="stop-button" @click=${() => void this.#kit.session?.cancelTurn().catch((error: unknown) => (this.problem = errorText(error)))}>${t('composer.stop')}</button>`
            : html`<button type="submit" class="send primary" part="send-button">${t('composer.send')}</button>`
        }
      </div>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
    </form>`;
  }
}
