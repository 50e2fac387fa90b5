import type {
  AssistantView,
  DeclaredBrowserTool as BrowserToolDeclaration,
  PreviewTool,
} from '@diosc/protocol';
import { html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { assistantStyles } from './assistant-styles.js';
import { fieldError, invalidIf, serverProblem } from './form-problems.js';
import { type Problem, parseToolSchema, toolNameProblem } from './validation.js';

const EXAMPLE_SCHEMA = '{\n  "type": "object",\n  "properties": {},\n  "additionalProperties": false\n}';

/** What the model is offered for a declared browser tool: exactly these three fields. */
export function modelView(tool: BrowserToolDeclaration): string {
  return JSON.stringify(
    { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
    null,
    2,
  );
}

/**
 * The browser tools the assistant declares (the page supplies only handlers): name, description
 * and input schema edited as JSON text, checked as it is typed, with the model's view beside it.
 */
export class BrowserToolsEditor extends LitElement {
  static override properties = {
    portal: { attribute: false },
    assistant: { attribute: false },
    editing: { state: true },
    draft: { state: true },
    problems: { state: true },
    error: { state: true },
    served: { state: true },
  };
  static override styles = [sharedStyles, assistantStyles];
  declare portal: Portal;
  declare assistant: AssistantView;
  /** The index being edited, `-1` for a new tool, `null` when the form is closed. */
  declare editing: number | null;
  declare draft: { name: string; description: string; schema: string };
  declare problems: { name?: Problem; description?: Problem; schema?: Problem };
  declare error: string | null;
  /** The hub's own answer for the draft: what it offers the model, or why it would not. */
  declare served: { tool: PreviewTool } | { reason: string } | null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    new I18nController(this);
    this.editing = null;
    this.draft = { name: '', description: '', schema: EXAMPLE_SCHEMA };
    this.problems = {};
    this.error = null;
    this.served = null;
  }

  get #tools(): BrowserToolDeclaration[] {
    return this.assistant.browserTools;
  }

  async #open(index: number): Promise<void> {
    const tool = this.#tools[index];
    this.editing = index;
    this.draft = tool
      ? { name: tool.name, description: tool.description, schema: JSON.stringify(tool.inputSchema, null, 2) }
      : { name: '', description: '', schema: EXAMPLE_SCHEMA };
    this.problems = {};
    this.error = null;
    this.#schedulePreview();
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('#tool-name')?.focus();
  }

  #check(): { tool: BrowserToolDeclaration } | null {
    const taken = this.#tools.filter((_, index) => index !== this.editing).map((tool) => tool.name);
    const name = toolNameProblem(this.draft.name.trim(), taken);
    const description = this.draft.description.trim();
    const parsed = parseToolSchema(this.draft.schema);
    this.problems = {
      ...(name ? { name } : {}),
      ...(description === ''
        ? { description: { key: 'descriptionEmpty' } }
        : description.length > 1024
          ? { description: { key: 'tooLong', params: { max: 1024 } } }
          : {}),
      ...('problem' in parsed ? { schema: parsed.problem } : {}),
    };
    if (Object.keys(this.problems).length > 0 || 'problem' in parsed) return null;
    return { tool: { name: this.draft.name.trim(), description, inputSchema: parsed.schema } };
  }

  /** Asks the hub what the model would be offered for the draft, a moment after typing stops. */
  #schedulePreview(): void {
    clearTimeout(this.#timer);
    this.served = null;
    this.#timer = setTimeout(() => void this.#preview(), 300);
  }

  async #preview(): Promise<void> {
    const name = this.draft.name.trim();
    const parsed = parseToolSchema(this.draft.schema);
    if (toolNameProblem(name) || !('schema' in parsed) || this.draft.description.trim() === '') return;
    const draft = { name, description: this.draft.description.trim(), inputSchema: parsed.schema };
    const others = this.#tools.filter((_, index) => index !== this.editing);
    try {
      const result = await this.portal.assistants.previewTools(this.assistant.id, {
        browserTools: [...others, draft],
      });
      const tool = result.tools.find((each) => each.name === name);
      const refused = result.notOffered.find((each) => each.name === name);
      this.served = tool ? { tool } : { reason: refused?.reason ?? t('assistants.tools.notOffered') };
    } catch (error) {
      this.served = { reason: serverProblem(error) };
    }
  }

  async #save(tools: BrowserToolDeclaration[]): Promise<boolean> {
    this.error = null;
    try {
      const assistant = await this.portal.assistants.update(this.assistant.id, { browserTools: tools });
      this.dispatchEvent(
        new CustomEvent('assistant-saved', { detail: assistant, bubbles: true, composed: true }),
      );
      return true;
    } catch (error) {
      this.error = serverProblem(error);
      return false;
    }
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const checked = this.#check();
    if (!checked) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('form [aria-invalid="true"]')?.focus();
      return;
    }
    const tools = [...this.#tools];
    if (this.editing === -1 || this.editing === null) tools.push(checked.tool);
    else tools[this.editing] = checked.tool;
    if (await this.#save(tools)) this.editing = null;
  }

  override render() {
    return html`<section class="card" aria-labelledby="browser-tools-heading">
      <div class="row">
        <h2 id="browser-tools-heading">${t('assistants.tools.browserHeading')}</h2>
        <span class="spacer"></span>
        <button type="button" id="add-browser-tool" @click=${() => void this.#open(-1)}>${t('assistants.tools.addBrowserTool')}</button>
      </div>
      <p class="small muted mt">${t('assistants.tools.browserHint')}</p>
      ${
        this.#tools.length === 0
          ? html`<p class="empty muted mt">${t('assistants.tools.noBrowserTools')}</p>`
          : html`<ul class="list mt">${this.#tools.map(
              (tool, index) => html`<li class="item">
                <div class="item-head"><strong class="mono" id=${`bt-${index}`}>${tool.name}</strong>
                  <span class="spacer"></span>
                  <button type="button" id=${`bt-edit-${index}`} aria-labelledby=${`bt-edit-${index} bt-${index}`} @click=${() => void this.#open(index)}>${t('assistants.edit')}</button>
                  <button type="button" class="danger" id=${`bt-remove-${index}`} aria-labelledby=${`bt-remove-${index} bt-${index}`}
                    @click=${() => void this.#save(this.#tools.filter((_, i) => i !== index))}>${t('assistants.remove')}</button></div>
                <p class="small muted">${tool.description}</p>
              </li>`,
            )}</ul>`
      }
      ${this.editing !== null ? this.#form() : nothing}
      ${this.error && this.editing === null ? html`<p class="notice error mt" role="alert">${this.error}</p>` : nothing}
    </section>`;
  }

  #form() {
    const name = invalidIf('tool-name', this.problems.name);
    const description = invalidIf('tool-description', this.problems.description);
    const schema = invalidIf('tool-schema', this.problems.schema, 'tool-schema-hint');
    const parsed = parseToolSchema(this.draft.schema);
    const served = this.served;
    const preview =
      served && 'tool' in served
        ? modelView(served.tool)
        : 'schema' in parsed
          ? modelView({
              name: this.draft.name.trim(),
              description: this.draft.description.trim(),
              inputSchema: parsed.schema,
            })
          : null;
    const set = (key: keyof BrowserToolsEditor['draft']) => (event: Event) => {
      this.draft = { ...this.draft, [key]: (event.target as HTMLInputElement).value };
      // Once refused, the fields are checked again as they are typed, so a fixed field says so.
      if (Object.keys(this.problems).length > 0) this.#check();
      this.#schedulePreview();
    };
    return html`<form class="item mt" novalidate @submit=${this.#submit} aria-labelledby="tool-form-heading">
      <h3 id="tool-form-heading">${this.editing === -1 ? t('assistants.tools.newBrowserTool') : t('assistants.tools.editBrowserTool')}</h3>
      <div class="grid2 mt">
        <div>
          <div class="field">
            <label for="tool-name">${t('assistants.tools.name')}</label>
            <input id="tool-name" type="text" class="mono" .value=${this.draft.name} @input=${set('name')}
              aria-invalid=${name.invalid} aria-describedby=${name.described} />
            ${fieldError('tool-name', this.problems.name ?? null)}
          </div>
          <div class="field">
            <label for="tool-description">${t('assistants.tools.description')}</label>
            <input id="tool-description" type="text" .value=${this.draft.description} @input=${set('description')}
              aria-invalid=${description.invalid} aria-describedby=${description.described} />
            ${fieldError('tool-description', this.problems.description ?? null)}
          </div>
          <div class="field">
            <label for="tool-schema">${t('assistants.tools.schema')}</label>
            <p id="tool-schema-hint" class="small muted">${t('assistants.tools.schemaHint')}</p>
            <textarea id="tool-schema" spellcheck="false" .value=${this.draft.schema} @input=${set('schema')}
              aria-invalid=${schema.invalid} aria-describedby=${schema.described}></textarea>
            ${fieldError('tool-schema', this.problems.schema ?? null)}
          </div>
        </div>
        <div class="field">
          <span class="label" id="preview-label">${t('assistants.tools.preview')}</span>
          <p class="small muted">${t('assistants.tools.previewHint')}</p>
          ${
            preview
              ? html`<pre class="preview" aria-labelledby="preview-label" tabindex="0">${preview}</pre>`
              : html`<p class="small muted">${t('assistants.tools.previewUnavailable')}</p>`
          }
          <p class="small" role="status">${
            served === null
              ? t('assistants.tools.previewLocal')
              : 'tool' in served
                ? t('assistants.tools.previewServed')
                : t('assistants.tools.previewRefused', { reason: served.reason })
          }</p>
        </div>
      </div>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      <div class="row">
        <span class="spacer"></span>
        <button type="button" @click=${() => {
          this.editing = null;
        }}>${t('common.cancel')}</button>
        <button class="primary" type="submit">${t('assistants.tools.saveTool')}</button>
      </div>
    </form>`;
  }
}

customElements.define('diosc-browser-tools-editor', BrowserToolsEditor);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-browser-tools-editor': BrowserToolsEditor;
  }
}
