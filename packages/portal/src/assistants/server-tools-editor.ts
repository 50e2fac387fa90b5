import type { CollectionRow, GrantEntry } from '@diosc/protocol';
import { html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { I18nController, t } from '../i18n/i18n.js';
import { PATHS } from '../router/router.js';
import { errorText } from '../ui/error-text.js';
import { sharedStyles } from '../ui/shared-styles.js';
import '../ui/grant-picker.js';
import type { AssistantView, AssistantWrite, ApprovalSeverity as Severity } from '@diosc/protocol';
import { assistantStyles } from './assistant-styles.js';
import { consensusTable, serverToolNames } from './consensus-table.js';
import { fieldError, invalidIf, serverProblem } from './form-problems.js';
import { type GenerateDraft, generateFileSection } from './generate-file-section.js';
import { integerProblem, mcpServerProblems, type Problem } from './validation.js';

interface McpDraft {
  name: string;
  url: string;
  /** Typed now (sent once); empty keeps the stored token. */
  token: string;
  tokenSet: boolean;
  listed: { name: string; description?: string }[] | null;
  listError: string | null;
}

/**
 * The assistant's server tools: this account's catalog through an app connection with an exact
 * grant (the Connected apps grant picker, and the connection is listed there), external MCP servers
 * (URL, a token sent once, a "List tools" check), `generate_file`, and which server tools wait for
 * the visitor's Consensus at which severity.
 */
export class ServerToolsEditor extends LitElement {
  static override properties = {
    portal: { attribute: false },
    assistant: { attribute: false },
    collections: { state: true },
    grant: { state: true },
    servers: { state: true },
    generate: { state: true },
    consensus: { state: true },
    problems: { state: true },
    error: { state: true },
    busy: { state: true },
  };
  static override styles = [sharedStyles, assistantStyles];
  declare portal: Portal;
  declare assistant: AssistantView;
  declare collections: CollectionRow[];
  declare grant: GrantEntry[];
  declare servers: McpDraft[];
  declare generate: GenerateDraft;
  declare consensus: Record<string, Severity>;
  declare problems: Record<string, Problem>;
  declare error: string | null;
  declare busy: boolean;

  constructor() {
    super();
    new I18nController(this);
    this.collections = [];
    this.grant = [];
    this.servers = [];
    this.generate = { enabled: false, formats: [], maxKiB: '1024' };
    this.consensus = {};
    this.problems = {};
    this.error = null;
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.portal.api
      .operation('collections_list', {})
      .then(({ result }) => {
        this.collections = result.collections;
      })
      .catch((error: unknown) => {
        this.error = errorText(error);
      });
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (!changed.has('assistant')) return;
    const tools = this.assistant.serverTools;
    this.grant = structuredClone(tools.account?.grant ?? []);
    this.servers = tools.mcpServers.map((server) => ({
      name: server.name,
      url: server.url,
      token: '',
      tokenSet: server.token.set,
      listed: null,
      listError: null,
    }));
    this.generate = {
      enabled: tools.generateFile.enabled,
      formats: [...tools.generateFile.formats],
      maxKiB: String(Math.round(tools.generateFile.maxBytes / 1024)),
    };
    this.consensus = { ...tools.consensus };
  }

  /** Every server tool the model could be offered, so each can be given a Consensus severity. */
  #toolNames(): string[] {
    return serverToolNames({
      grant: this.grant,
      generateFile: this.generate.enabled,
      mcpTools: this.servers.map((server) => ({ server: server.name, tools: server.listed ?? [] })),
      consensus: this.consensus,
    });
  }

  #setServer(index: number, patch: Partial<McpDraft>): void {
    this.servers = this.servers.map((server, i) => (i === index ? { ...server, ...patch } : server));
  }

  async #listTools(index: number): Promise<void> {
    const server = this.servers[index]!;
    const found = mcpServerProblems(server.name, server.url, []);
    if (found.url) {
      this.problems = { ...this.problems, [`mcp-url-${index}`]: found.url };
      return;
    }
    this.#setServer(index, { listed: null, listError: null });
    try {
      // A stored server with no new token is checked by name, so its stored token is used.
      const stored = server.tokenSet && !server.token && this.#storedUrl(server.name) === server.url;
      const result = await this.portal.assistants.checkMcp(
        this.assistant.id,
        stored
          ? { name: server.name }
          : { url: server.url, ...(server.token ? { token: server.token } : {}) },
      );
      if (result.ok) this.#setServer(index, { listed: result.tools });
      else this.#setServer(index, { listError: `${result.error.code}: ${result.error.message}` });
    } catch (error) {
      this.#setServer(index, { listError: serverProblem(error) });
    }
  }

  #storedUrl(name: string): string | undefined {
    return this.assistant.serverTools.mcpServers.find((server) => server.name === name)?.url;
  }

  #check(): Record<string, Problem> {
    const problems: Record<string, Problem> = {};
    this.servers.forEach((server, index) => {
      const taken = this.servers.slice(0, index).map((other) => other.name);
      const found = mcpServerProblems(server.name, server.url, taken);
      if (found.name) problems[`mcp-name-${index}`] = found.name;
      if (found.url) problems[`mcp-url-${index}`] = found.url;
    });
    if (this.generate.enabled && this.generate.formats.length === 0)
      problems['gen-formats'] = { key: 'formatsEmpty' };
    const size = integerProblem(this.generate.maxKiB, 1, 10 * 1024);
    if (size) problems['gen-max'] = size;
    return problems;
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.problems = this.#check();
    this.error = null;
    if (Object.keys(this.problems).length > 0) {
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const input: AssistantWrite = {
      serverTools: {
        // No cell ticked removes the catalog access (and revokes its app connection).
        account: this.grant.length > 0 ? { grant: this.grant } : null,
        mcpServers: this.servers.map((server) => ({
          name: server.name,
          url: server.url,
          ...(server.token ? { token: server.token } : {}),
        })),
        generateFile: {
          enabled: this.generate.enabled,
          formats: this.generate.formats,
          maxBytes: Number(this.generate.maxKiB) * 1024,
        },
        consensus: this.consensus,
      },
    };
    this.busy = true;
    try {
      const assistant = await this.portal.assistants.update(this.assistant.id, input);
      this.dispatchEvent(
        new CustomEvent('assistant-saved', { detail: assistant, bubbles: true, composed: true }),
      );
    } catch (error) {
      this.error = serverProblem(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<form novalidate @submit=${this.#submit}>
      ${this.#account()} ${this.#mcp()} ${this.#generateFile()} ${this.#consensus()}
      ${this.error ? html`<p class="notice error mt" role="alert">${this.error}</p>` : nothing}
      <div class="row mt"><span class="spacer"></span>
        <button class="primary" type="submit" aria-disabled=${this.busy ? 'true' : 'false'}>${t('assistants.tools.saveServerTools')}</button>
      </div>
    </form>`;
  }

  #account() {
    const connected = this.assistant.serverTools.account?.connectionId;
    return html`<section class="card mt" aria-labelledby="account-tools-heading">
      <h2 id="account-tools-heading">${t('assistants.tools.accountHeading')}</h2>
      <p class="small muted mt">${t('assistants.tools.accountHint')}
        ${connected ? html`<a href=${PATHS.connectedApps}>${t('assistants.tools.seeConnectedApps')}</a>` : nothing}</p>
      <diosc-grant-picker class="mt" .collections=${this.collections} .value=${this.grant} label=${t('assistants.tools.accountHeading')}
        @change=${(event: CustomEvent<GrantEntry[]>) => {
          this.grant = event.detail;
        }}></diosc-grant-picker>
    </section>`;
  }

  #mcp() {
    return html`<section class="card mt" aria-labelledby="mcp-servers-heading">
      <div class="row"><h2 id="mcp-servers-heading">${t('assistants.tools.mcpHeading')}</h2><span class="spacer"></span>
        <button type="button" id="add-mcp-server" @click=${() => {
          this.servers = [
            ...this.servers,
            { name: '', url: '', token: '', tokenSet: false, listed: null, listError: null },
          ];
        }}>${t('assistants.tools.addMcpServer')}</button></div>
      <p class="small muted mt">${t('assistants.tools.mcpHint')}</p>
      ${this.servers.length === 0 ? html`<p class="empty muted mt">${t('assistants.tools.noMcpServers')}</p>` : nothing}
      <ul class="list mt">${this.servers.map((server, index) => this.#server(server, index))}</ul>
    </section>`;
  }

  #server(server: McpDraft, index: number) {
    const field = (key: 'name' | 'url' | 'token', label: string, type = 'text') => {
      const id = `mcp-${key}-${index}`;
      const problem = this.problems[id] ?? null;
      const { invalid, described } = invalidIf(id, problem);
      return html`<div class="field">
        <label for=${id}>${label}</label>
        <input id=${id} type=${type} autocomplete="off" .value=${server[key]} aria-invalid=${invalid} aria-describedby=${described}
          placeholder=${key === 'token' && server.tokenSet ? t('assistants.tools.tokenSetPlaceholder') : ''}
          @input=${(event: Event) => this.#setServer(index, { [key]: (event.target as HTMLInputElement).value })} />
        ${fieldError(id, problem)}
      </div>`;
    };
    return html`<li class="item">
      <div class="grid3">
        ${field('name', t('assistants.tools.mcpName'))} ${field('url', t('assistants.tools.mcpUrl'))}
        ${field('token', t('assistants.tools.mcpToken'), 'password')}
      </div>
      <div class="row">
        ${server.tokenSet ? html`<span class="badge ok">${t('assistants.tools.tokenSet')}</span>` : nothing}
        <span class="spacer"></span>
        <button type="button" id=${`mcp-list-${index}`} @click=${() => void this.#listTools(index)}>${t('assistants.tools.listTools')}</button>
        <button type="button" class="danger" @click=${() => {
          this.servers = this.servers.filter((_, i) => i !== index);
        }}>${t('assistants.remove')}</button>
      </div>
      <div role="status">
        ${server.listError ? html`<p class="notice error mt">${server.listError}</p>` : nothing}
        ${
          server.listed
            ? html`<p class="small mt">${t('assistants.tools.listedCount', { count: server.listed.length })}</p>
              <ul class="small">${server.listed.map((tool) => html`<li><span class="mono">${tool.name}</span>${tool.description ? html` — ${tool.description}` : nothing}</li>`)}</ul>`
            : nothing
        }
      </div>
    </li>`;
  }

  #generateFile() {
    return generateFileSection(this.generate, this.problems, (patch) => {
      this.generate = { ...this.generate, ...patch(this.generate) };
    });
  }

  #consensus() {
    return consensusTable(this.#toolNames(), this.consensus, (name, severity) => {
      const next = { ...this.consensus };
      if (severity) next[name] = severity;
      else delete next[name];
      this.consensus = next;
    });
  }
}

customElements.define('diosc-server-tools-editor', ServerToolsEditor);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-server-tools-editor': ServerToolsEditor;
  }
}
