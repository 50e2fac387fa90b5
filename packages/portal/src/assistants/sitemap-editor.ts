import type { AssistantView, SitemapRouteView, SitemapTestResult } from '@diosc/protocol';
import { html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { assistantStyles } from './assistant-styles.js';
import { fieldError, invalidIf, serverProblem } from './form-problems.js';
import { type Problem, routeProblems } from './validation.js';

/** Draft routes as the hub takes them: trimmed, an empty description left out. */
function cleaned(routes: readonly SitemapRouteView[]): SitemapRouteView[] {
  return routes.map((route) => ({
    path: route.path.trim(),
    title: route.title.trim(),
    ...(route.description?.trim() ? { description: route.description.trim() } : {}),
  }));
}

/**
 * The Sitemap: where the assistant may navigate. A route editor, a tester that asks the hub
 * (its own matcher, on the draft routes), and import from a sitemap.xml URL or file (parsed by the
 * hub, which refuses DTDs); nothing is saved until Save.
 */
export class SitemapEditor extends LitElement {
  static override properties = {
    portal: { attribute: false },
    assistant: { attribute: false },
    routes: { state: true },
    problems: { state: true },
    error: { state: true },
    tested: { state: true },
    importNote: { state: true },
    importError: { state: true },
  };
  static override styles = [sharedStyles, assistantStyles];
  declare portal: Portal;
  declare assistant: AssistantView;
  declare routes: SitemapRouteView[];
  declare problems: Record<string, Problem>;
  declare error: string | null;
  declare tested: { path: string; result: SitemapTestResult } | { path: string; error: string } | null;
  declare importNote: string | null;
  declare importError: string | null;

  constructor() {
    super();
    new I18nController(this);
    this.routes = [];
    this.problems = {};
    this.error = null;
    this.tested = null;
    this.importNote = null;
    this.importError = null;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('assistant')) this.routes = this.assistant.sitemap.map((route) => ({ ...route }));
  }

  #set(index: number, key: keyof SitemapRouteView, value: string): void {
    this.routes = this.routes.map((route, i) => (i === index ? { ...route, [key]: value } : route));
  }

  async #save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.problems = routeProblems(this.routes);
    this.error = null;
    if (Object.keys(this.problems).length > 0) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    try {
      const assistant = await this.portal.assistants.update(this.assistant.id, {
        sitemap: cleaned(this.routes),
      });
      this.dispatchEvent(
        new CustomEvent('assistant-saved', { detail: assistant, bubbles: true, composed: true }),
      );
    } catch (error) {
      this.error = serverProblem(error);
    }
  }

  async #test(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const path = String(new FormData(event.target as HTMLFormElement).get('test-path') ?? '').trim();
    if (path === '') {
      this.tested = { path, error: t('assistants.invalid.testPathEmpty') };
      return;
    }
    try {
      this.tested = {
        path,
        result: await this.portal.assistants.testSitemap(this.assistant.id, path, cleaned(this.routes)),
      };
    } catch (error) {
      this.tested = { path, error: serverProblem(error) };
    }
  }

  async #import(request: { url?: string; xml?: string }): Promise<void> {
    this.importNote = null;
    this.importError = null;
    try {
      const { routes, origin } = await this.portal.assistants.importSitemap(this.assistant.id, request);
      const known = new Set(this.routes.map((route) => route.path));
      const added = routes.filter((route) => !known.has(route.path));
      this.routes = [...this.routes, ...added];
      this.importNote = t('assistants.sitemap.imported', { count: added.length, origin });
    } catch (error) {
      this.importError = serverProblem(error);
    }
  }

  async #importUrl(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const url = String(new FormData(event.target as HTMLFormElement).get('import-url') ?? '').trim();
    if (!/^https?:\/\/\S+$/.test(url)) {
      this.importError = t('assistants.invalid.importUrl');
      return;
    }
    await this.#import({ url });
  }

  async #importFile(event: Event): Promise<void> {
    const file = (event.target as HTMLInputElement).files?.[0];
    if (!file) return;
    await this.#import({ xml: await file.text() });
  }

  override render() {
    return html`${this.#editor()} ${this.#tester()} ${this.#importer()}`;
  }

  #editor() {
    return html`<form class="card" novalidate @submit=${this.#save} aria-labelledby="sitemap-heading">
      <div class="row"><h2 id="sitemap-heading">${t('assistants.sitemap.heading')}</h2><span class="spacer"></span>
        <button type="button" id="add-route" @click=${async () => {
          this.routes = [...this.routes, { path: '', title: '' }];
          await this.updateComplete;
          this.renderRoot.querySelector<HTMLInputElement>(`#route-path-${this.routes.length - 1}`)?.focus();
        }}>${t('assistants.sitemap.addRoute')}</button></div>
      <p class="small muted mt">${t('assistants.sitemap.hint')}</p>
      ${this.routes.length === 0 ? html`<p class="empty muted mt">${t('assistants.sitemap.none')}</p>` : nothing}
      <ol class="list mt">${this.routes.map(
        (route, index) => html`<li class="item"><div class="grid3">
          ${this.#field(index, 'path', t('assistants.sitemap.pattern'), route.path)}
          ${this.#field(index, 'title', t('assistants.sitemap.title'), route.title)}
          ${this.#field(index, 'description', t('assistants.sitemap.description'), route.description ?? '')}
        </div><div class="row"><span class="spacer"></span>
          <button type="button" class="danger" id=${`route-remove-${index}`} aria-label=${t('assistants.sitemap.removeRoute', { path: route.path || index + 1 })}
            @click=${() => {
              this.routes = this.routes.filter((_, i) => i !== index);
            }}>${t('assistants.remove')}</button></div></li>`,
      )}</ol>
      ${this.error ? html`<p class="notice error mt" role="alert">${this.error}</p>` : nothing}
      <div class="row mt"><span class="spacer"></span><button class="primary" type="submit">${t('assistants.sitemap.save')}</button></div>
    </form>`;
  }

  #field(index: number, key: keyof SitemapRouteView, label: string, value: string) {
    const id = `route-${key}-${index}`;
    const problem = this.problems[id] ?? null;
    const { invalid, described } = invalidIf(id, problem);
    return html`<div class="field">
      <label for=${id}>${label}</label>
      <input id=${id} type="text" class=${key === 'path' ? 'mono' : ''} .value=${value} aria-invalid=${invalid} aria-describedby=${described}
        placeholder=${key === 'path' ? '/products/:id' : ''}
        @input=${(event: Event) => this.#set(index, key, (event.target as HTMLInputElement).value)} />
      ${fieldError(id, problem)}
    </div>`;
  }

  #tester() {
    const tested = this.tested;
    return html`<section class="card mt" aria-labelledby="tester-heading">
      <h2 id="tester-heading">${t('assistants.sitemap.testerHeading')}</h2>
      <form class="row mt" novalidate @submit=${this.#test}>
        <label for="test-path" class="visually-hidden">${t('assistants.sitemap.testPath')}</label>
        <input id="test-path" name="test-path" type="text" class="mono grow" placeholder="/products/42" />
        <button type="submit">${t('assistants.sitemap.test')}</button>
      </form>
      <div role="status" class="mt" id="test-result">${
        tested === null
          ? nothing
          : 'error' in tested
            ? html`<p class="notice error">${tested.error}</p>`
            : tested.result.allowed
              ? html`<p class="notice ok">${t('assistants.sitemap.allowed', { path: tested.path, route: tested.result.route.path, title: tested.result.route.title })}</p>`
              : html`<div class="notice error"><p>${t('assistants.sitemap.refused', { path: tested.path })}</p><p class="small">${tested.result.message}</p></div>`
      }</div>
    </section>`;
  }

  #importer() {
    return html`<section class="card mt" aria-labelledby="import-heading">
      <h2 id="import-heading">${t('assistants.sitemap.importHeading')}</h2>
      <p class="small muted mt">${t('assistants.sitemap.importHint')}</p>
      <form class="row mt" novalidate @submit=${this.#importUrl}>
        <label for="import-url" class="visually-hidden">${t('assistants.sitemap.importUrl')}</label>
        <input id="import-url" name="import-url" type="text" placeholder="https://shop.example/sitemap.xml" class="grow" />
        <button type="submit">${t('assistants.sitemap.importFromUrl')}</button>
      </form>
      <div class="field mt">
        <label for="import-file">${t('assistants.sitemap.importFile')}</label>
        <input id="import-file" type="file" accept=".xml,application/xml,text/xml" @change=${(event: Event) => void this.#importFile(event)} />
      </div>
      <div role="status">
        ${this.importNote ? html`<p class="notice ok">${this.importNote}</p>` : nothing}
        ${this.importError ? html`<p class="notice error">${this.importError}</p>` : nothing}
      </div>
    </section>`;
  }
}

customElements.define('diosc-sitemap-editor', SitemapEditor);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-sitemap-editor': SitemapEditor;
  }
}
