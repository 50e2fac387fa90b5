import type { GrantEntry } from '@diosc/webmcp';
import { html, LitElement, nothing } from 'lit';
import type { ConnectionView } from '../api/owner-api.js';
import type { Portal } from '../app/portal.js';
import { formatTime, I18nController, t } from '../i18n/i18n.js';
import { PATHS } from '../router/router.js';
import { ObserveController } from '../state/observable.js';
import type { ConfirmDialog } from '../ui/confirm-dialog.js';
import { errorText } from '../ui/error-text.js';
import { icons } from '../ui/icons.js';
import { sharedStyles } from '../ui/shared-styles.js';
import type { ConnectionFormDialog } from './connection-form-dialog.js';
import type { TokenDialog } from './token-dialog.js';
import './connection-form-dialog.js';
import './token-dialog.js';
import '../ui/confirm-dialog.js';
import { connectedAppsStyles } from './connected-apps-styles.js';

export function grantSummary(grant: readonly GrantEntry[]) {
  return grant.map(
    (entry) =>
      html`<span class="badge accent">${entry.collection}: ${entry.functions.map((fn) => t(`functions.${fn}.short`)).join(', ')}</span>`,
  );
}

/**
 * HTTP MCP connections (assistants with their own bearer token and exact grant) — and, kept apart
 * and named differently, this browser session's own access, which is not an assistant connection.
 * Works the same in browsers without WebMCP.
 */
export class ConnectedAppsPage extends LitElement {
  static override properties = {
    portal: { attribute: false },
    connections: { state: true },
    error: { state: true },
  };
  static override styles = [sharedStyles, connectedAppsStyles];
  declare portal: Portal;
  declare connections: ConnectionView[] | null;
  declare error: string | null;

  constructor() {
    super();
    new I18nController(this);
    new ObserveController(this, () => [this.portal.browserTools.access]);
    this.connections = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
  }

  async #load(): Promise<void> {
    try {
      this.connections = (await this.portal.api.connections()).connections.filter(
        (c) => c.transport === 'http_mcp',
      );
    } catch (error) {
      this.error = errorText(error);
    }
  }

  #find<T extends Element>(selector: string): T {
    return this.renderRoot.querySelector(selector) as T;
  }

  async #created(event: CustomEvent<{ connection: ConnectionView; token: string; mcpUrl: string }>) {
    await this.#find<TokenDialog>('diosc-token-dialog').show(
      event.detail.connection.displayName,
      event.detail.token,
      event.detail.mcpUrl,
    );
    await this.#load();
  }

  async #rotate(connection: ConnectionView): Promise<void> {
    const ok = await this.#find<ConfirmDialog>('diosc-confirm-dialog').ask(
      t('apps.rotateTitle', { name: connection.displayName }),
      t('apps.rotateBody'),
      t('apps.rotate'),
    );
    if (!ok) return;
    try {
      // A rotated token keeps the lifetime the connection was created with.
      const lifetimeDays = connection.tokenExpiresAt
        ? Math.max(
            1,
            Math.round(
              (Date.parse(connection.tokenExpiresAt) - Date.parse(connection.createdAt)) / 86_400_000,
            ),
          )
        : undefined;
      const { token } = await this.portal.api.rotateConnection(connection.id, lifetimeDays);
      await this.#find<TokenDialog>('diosc-token-dialog').show(connection.displayName, token, null);
      await this.#load();
    } catch (error) {
      this.portal.toasts.show('error', errorText(error));
    }
  }

  async #revoke(connection: ConnectionView): Promise<void> {
    const ok = await this.#find<ConfirmDialog>('diosc-confirm-dialog').ask(
      t('apps.revokeTitle', { name: connection.displayName }),
      t('apps.revokeBody'),
      t('apps.revoke'),
    );
    if (!ok) return;
    try {
      await this.portal.api.revokeConnection(connection.id);
      this.portal.toasts.show('success', t('apps.revoked', { name: connection.displayName }));
      await this.#load();
    } catch (error) {
      this.portal.toasts.show('error', errorText(error));
    }
  }

  override render() {
    return html`<div class="page-head">
        <div>
          <h1>${t('apps.title')}</h1>
          <p class="muted">${t('apps.subtitle')}</p>
        </div>
        <button class="primary" @click=${() => void this.#find<ConnectionFormDialog>('diosc-connection-form-dialog').open()}>
          ${icons.plus}${t('apps.connect')}
        </button>
      </div>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      <section class="card" aria-labelledby="mcp-heading">
        <h2 id="mcp-heading">${t('apps.mcpHeading')}</h2>
        <p class="small muted mt">${t('apps.mcpHint')}</p>
        ${this.#table()}
      </section>
      ${this.#browserSession()}
      <diosc-connection-form-dialog
        .portal=${this.portal}
        @connection-created=${this.#created}
        @connection-changed=${(event: CustomEvent<ConnectionView>) => {
          this.portal.toasts.show('success', t('apps.changed', { name: event.detail.displayName }));
          void this.#load();
        }}
      ></diosc-connection-form-dialog>
      <diosc-token-dialog></diosc-token-dialog>
      <diosc-confirm-dialog></diosc-confirm-dialog>`;
  }

  #status(connection: ConnectionView) {
    if (connection.revokedAt) return html`<span class="badge danger">${t('apps.status.revoked')}</span>`;
    if (connection.tokenExpiresAt && Date.parse(connection.tokenExpiresAt) < Date.now())
      return html`<span class="badge warn">${t('apps.status.expired')}</span>`;
    return html`<span class="badge ok">${t('apps.status.active')}</span>`;
  }

  #table() {
    if (!this.connections) return html`<p class="muted mt">${t('app.loading')}</p>`;
    if (this.connections.length === 0) return html`<p class="empty muted">${t('apps.none')}</p>`;
    return html`<div class="table-wrap"><table class="mt">
      <thead>
        <tr>
          <th scope="col">${t('apps.col.name')}</th>
          <th scope="col">${t('apps.col.grant')}</th>
          <th scope="col">${t('apps.col.lastUsed')}</th>
          <th scope="col">${t('apps.col.expires')}</th>
          <th scope="col"><span class="visually-hidden">${t('apps.col.actions')}</span></th>
        </tr>
      </thead>
      <tbody>
        ${this.connections.map(
          (connection) => html`<tr>
            <td><strong id=${`name-${connection.id}`}>${connection.displayName}</strong><br />${this.#status(connection)}</td>
            <td><div class="badges">${grantSummary(connection.grant)}</div></td>
            <td class="small">${connection.lastUsedAt ? formatTime(connection.lastUsedAt) : t('apps.never')}</td>
            <td class="small">${connection.tokenExpiresAt ? formatTime(connection.tokenExpiresAt) : t('apps.noExpiry')}</td>
            <td class="actions">
              ${
                connection.revokedAt
                  ? nothing
                  : // Each name is the visible label followed by the row's app ("Edit access Claude"):
                    // it starts with what a speech user reads on the button (WCAG 2.5.3).
                    html`<button id=${`edit-${connection.id}`} aria-labelledby=${`edit-${connection.id} name-${connection.id}`} @click=${() => void this.#find<ConnectionFormDialog>('diosc-connection-form-dialog').open(connection)}>${t('apps.edit')}</button>
                    <button id=${`rotate-${connection.id}`} aria-labelledby=${`rotate-${connection.id} name-${connection.id}`} @click=${() => void this.#rotate(connection)}>${t('apps.rotate')}</button>
                    <button id=${`revoke-${connection.id}`} aria-labelledby=${`revoke-${connection.id} name-${connection.id}`} class="danger" @click=${() => void this.#revoke(connection)}>${t('apps.revoke')}</button>`
              }
            </td>
          </tr>`,
        )}
      </tbody>
    </table></div>`;
  }

  #browserSession() {
    const access = this.portal.browserTools.access.value;
    return html`<section class="card browser" aria-labelledby="browser-heading">
      <div class="row">
        <h2 id="browser-heading">${t('apps.browserHeading')}</h2>
        <span class="badge">${t('apps.browserBadge')}</span>
      </div>
      <p class="small muted mt">${t('apps.browserHint')}</p>
      <div class="row mt">
        ${
          access?.enabled
            ? html`<span class="badge ok">${t('apps.browserOn')}</span><span class="badges">${grantSummary(access.selection ?? [])}</span>`
            : html`<span class="badge">${t('apps.browserOff')}</span>`
        }
        <span class="spacer"></span>
        <a class="btn" href=${PATHS.automationHub}>${icons.automation}${t('apps.openAutomation')}</a>
      </div>
    </section>`;
  }
}

customElements.define('diosc-connected-apps-page', ConnectedAppsPage);
