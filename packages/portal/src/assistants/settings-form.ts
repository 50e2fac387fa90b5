import type { AssistantView, ModelProvider, TestConnectionResult } from '@diosc/protocol';
import { html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { assistantStyles } from './assistant-styles.js';
import { fieldError, invalidIf, serverProblem, settingsFieldOf } from './form-problems.js';
import { LIMITS, type Problems, readSettings } from './settings-input.js';
import { NEW_UPLOADS, uploadsSection } from './uploads-section.js';

// `auto` first: it is the server's own default, and works with no key (the scripted demo model).
const PROVIDERS: ModelProvider[] = ['auto', 'openai', 'anthropic', 'openai-compatible', 'scripted'];

/**
 * Name, instructions, model, provider key, allowed origins and limits — the create form (no
 * `assistant`) and the Settings section. The provider key goes to the server once and is never
 * shown again: the form knows only whether one is set.
 */
export class SettingsForm extends LitElement {
  static override properties = {
    portal: { attribute: false },
    assistant: { attribute: false },
    problems: { state: true },
    error: { state: true },
    busy: { state: true },
    provider: { state: true },
    replacingKey: { state: true },
    test: { state: true },
    testing: { state: true },
  };
  static override styles = [sharedStyles, assistantStyles];
  declare portal: Portal;
  declare assistant: AssistantView | null;
  declare problems: Problems;
  declare error: string | null;
  declare busy: boolean;
  declare provider: ModelProvider;
  declare replacingKey: boolean;
  declare test: TestConnectionResult | null;
  declare testing: boolean;

  constructor() {
    super();
    new I18nController(this);
    this.assistant = null;
    this.problems = {};
    this.error = null;
    this.busy = false;
    this.provider = 'auto';
    this.replacingKey = false;
    this.test = null;
    this.testing = false;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('assistant') && this.assistant) this.provider = this.assistant.model.provider;
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const read = readSettings(new FormData(form), this.provider, this.assistant === null);
    this.error = null;
    if ('problems' in read) {
      this.problems = read.problems;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    this.problems = {};
    this.busy = true;
    try {
      const assistant = this.assistant
        ? await this.portal.assistants.update(this.assistant.id, read.input)
        : await this.portal.assistants.create(read.input);
      // The key has reached the server; nothing of it stays in the page.
      const keyField = form.querySelector<HTMLInputElement>('#providerKey');
      if (keyField) keyField.value = '';
      this.replacingKey = false;
      this.dispatchEvent(
        new CustomEvent('assistant-saved', { detail: assistant, bubbles: true, composed: true }),
      );
    } catch (error) {
      this.error = serverProblem(error);
      const field = settingsFieldOf(error);
      if (field) this.problems = { [field]: (error as Error).message };
    } finally {
      this.busy = false;
    }
  }

  async #testConnection(): Promise<void> {
    if (!this.assistant) return;
    this.testing = true;
    this.test = null;
    // What is on screen is tested: the model fields as typed, and a key typed but not yet saved.
    const form = this.renderRoot.querySelector('form')!;
    const data = new FormData(form);
    const id = String(data.get('modelId') ?? '').trim();
    const baseUrl = String(data.get('baseUrl') ?? '').trim();
    const key = String(data.get('providerKey') ?? '');
    const model =
      id || this.provider !== this.assistant.model.provider ? { provider: this.provider, id } : undefined;
    try {
      this.test = await this.portal.assistants.testConnection(this.assistant.id, {
        ...(model ? { model: { ...model, ...(baseUrl ? { baseUrl } : {}) } } : {}),
        ...(key ? { providerKey: key } : {}),
      });
    } catch (error) {
      this.test = { ok: false, error: { code: 'internal', message: serverProblem(error) } };
    } finally {
      this.testing = false;
    }
  }

  #input(
    id: string,
    label: string,
    options: { value?: string; type?: string; hint?: string; extra?: string } = {},
  ) {
    const problem = this.problems[id] ?? null;
    const hintId = options.hint ? `${id}-hint` : undefined;
    const { invalid, described } = invalidIf(id, problem, hintId);
    return html`<div class="field">
      <label for=${id}>${label}</label>
      ${options.hint ? html`<p id=${hintId} class="small muted">${options.hint}</p>` : nothing}
      <input id=${id} name=${id} type=${options.type ?? 'text'} .value=${options.value ?? ''}
        autocomplete="off" aria-invalid=${invalid} aria-describedby=${described} />
      ${fieldError(id, problem)}
    </div>`;
  }

  override render() {
    const config = this.assistant;
    const keySet = this.assistant?.secrets.providerKey.set ?? false;
    const originsProblem = this.problems.origins ?? null;
    const origins = invalidIf('origins', originsProblem, 'origins-hint');
    const instructions = invalidIf('instructions', this.problems.instructions ?? null);
    // What Test connection showed was about the fields as they were: a change makes it stale.
    const forgetTest = (event: Event) => {
      const id = (event.target as HTMLElement).id;
      if (id === 'modelId' || id === 'baseUrl' || id === 'providerKey') this.test = null;
    };
    return html`<form novalidate @submit=${this.#submit} @input=${forgetTest} aria-labelledby="settings-heading">
      <section class="card">
        <h2 id="settings-heading">${this.assistant ? t('assistants.settings.heading') : t('assistants.settings.newHeading')}</h2>
        <div class="mt">${this.#input('name', t('assistants.settings.name'), { value: config?.name ?? '' })}</div>
        <div class="field">
          <label for="instructions">${t('assistants.settings.instructions')}</label>
          <textarea id="instructions" name="instructions" class="short" .value=${config?.instructions ?? ''}
            aria-invalid=${instructions.invalid} aria-describedby=${instructions.described}></textarea>
          ${fieldError('instructions', this.problems.instructions ?? null)}
        </div>
      </section>
      <section class="card mt" aria-labelledby="model-heading">
        <h2 id="model-heading">${t('assistants.settings.modelHeading')}</h2>
        <div class="grid2 mt">
          <div class="field">
            <label for="provider">${t('assistants.settings.provider')}</label>
            <select id="provider" name="provider" @change=${(event: Event) => {
              this.provider = (event.target as HTMLSelectElement).value as ModelProvider;
              this.test = null;
            }}>
              ${PROVIDERS.map((p) => html`<option value=${p} ?selected=${p === this.provider}>${t(`assistants.providers.${p}`)}</option>`)}
            </select>
          </div>
          ${
            this.provider === 'auto'
              ? html`<p class="small muted" id="auto-model">${t('assistants.settings.autoModel')}</p>`
              : this.#input('modelId', t('assistants.settings.modelId'), {
                  value: config?.model.provider === this.provider ? config.model.id : '',
                  hint: t(`assistants.settings.modelIdHints.${this.provider}`),
                })
          }
        </div>
        ${this.provider === 'openai-compatible' ? this.#input('baseUrl', t('assistants.settings.baseUrl'), { value: config?.model.baseUrl ?? '' }) : nothing}
        ${this.#keyField(keySet)}
        ${this.assistant ? this.#testRow() : nothing}
      </section>
      <section class="card mt" aria-labelledby="origins-heading">
        <h2 id="origins-heading">${t('assistants.settings.originsHeading')}</h2>
        <div class="field mt">
          <label for="origins">${t('assistants.settings.origins')}</label>
          <p id="origins-hint" class="small muted">${t('assistants.settings.originsHint')}</p>
          <textarea id="origins" name="origins" class="short" spellcheck="false" .value=${(config?.allowedOrigins ?? []).join('\n')}
            aria-invalid=${origins.invalid} aria-describedby=${origins.described}></textarea>
          ${fieldError('origins', originsProblem)}
        </div>
        <div class="checks"><label><input type="checkbox" id="outside-links" name="outsideLinks" .checked=${config?.outsideLinks ?? false} />
          ${t('assistants.settings.outsideLinks')}</label></div>
        <p class="small muted">${t('assistants.settings.outsideLinksHint')}</p>
      </section>
      ${uploadsSection(config?.files ?? NEW_UPLOADS, this.problems)}
      <section class="card mt" aria-labelledby="limits-heading">
        <h2 id="limits-heading">${t('assistants.settings.limitsHeading')}</h2>
        <div class="grid3 mt">
          ${LIMITS.map((limit) =>
            this.#input(limit.key, t(`assistants.limits.${limit.key}`), {
              value: String(Math.round((config?.limits[limit.key] ?? limit.default) / limit.unit)),
              type: 'text',
              hint: t('assistants.limits.range', { min: limit.min, max: limit.max }),
            }),
          )}
        </div>
      </section>
      ${this.error ? html`<p class="notice error mt" role="alert">${this.error}</p>` : nothing}
      <div class="row mt">
        <span class="spacer"></span>
        <button class="primary" type="submit" aria-disabled=${this.busy ? 'true' : 'false'}>
          ${this.assistant ? t('assistants.settings.save') : t('assistants.settings.create')}
        </button>
      </div>
    </form>`;
  }

  #keyField(keySet: boolean) {
    if (keySet && !this.replacingKey) {
      return html`<div class="field">
        <span class="label">${t('assistants.settings.providerKey')}</span>
        <div class="row"><span class="badge ok" data-secret="provider-key">${t('assistants.settings.keySet')}</span>
          <button type="button" @click=${async () => {
            this.replacingKey = true;
            await this.updateComplete;
            this.renderRoot.querySelector<HTMLInputElement>('#providerKey')?.focus();
          }}>${t('assistants.settings.replaceKey')}</button></div>
      </div>`;
    }
    return this.#input('providerKey', t('assistants.settings.providerKey'), {
      type: 'password',
      hint: keySet ? t('assistants.settings.keyReplaceHint') : t('assistants.settings.keyHint'),
    });
  }

  #testRow() {
    const test = this.test;
    return html`<div class="row">
        <button type="button" id="test-connection" @click=${() => void this.#testConnection()} aria-disabled=${this.testing ? 'true' : 'false'}>
          ${this.testing ? t('assistants.settings.testing') : t('assistants.settings.testConnection')}
        </button>
      </div>
      <div role="status" class="mt">
        ${
          test === null
            ? nothing
            : test.ok
              ? html`<p class="notice ok">${t('assistants.settings.testOk', { label: test.label })}</p>`
              : html`<div class="notice error"><p>${t('assistants.settings.testFailed', { code: test.error.code })}</p><pre class="provider-error">${test.error.message}</pre></div>`
        }
      </div>`;
  }
}

customElements.define('diosc-assistant-settings', SettingsForm);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-assistant-settings': SettingsForm;
  }
}
