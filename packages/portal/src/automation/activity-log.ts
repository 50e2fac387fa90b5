import { css, html, LitElement, nothing } from 'lit';
import type { UsageView } from '../api/owner-api.js';
import type { Portal } from '../app/portal.js';
import { formatTime, hasKey, I18nController, t } from '../i18n/i18n.js';
import { ObserveController } from '../state/observable.js';
import { errorText } from '../ui/error-text.js';
import { sharedStyles } from '../ui/shared-styles.js';

interface Row {
  at: string;
  tool: string;
  collection: string | null;
  outcome: string;
  requestId: string | null;
  pageOnly: boolean;
}

const TONE: Record<string, string> = { ok: 'ok', replayed: 'ok', declined: 'warn', cancelled: 'warn' };

/** Known outcomes in words; an error code is data and is shown as it is (its sentence as a tooltip). */
function outcomeLabel(outcome: string): string {
  const key = `automation.activity.outcomes.${outcome}`;
  return hasKey(key) ? t(key) : outcome;
}

/** Browser-tool invocations as the server recorded them: tool, collection, outcome, request ID, time. */
export class ActivityLog extends LitElement {
  static override properties = {
    portal: { attribute: false },
    entries: { state: true },
    error: { state: true },
  };
  static override styles = [
    sharedStyles,
    css`
      .wrap {
        overflow-x: auto;
      }
      td.mono {
        word-break: break-all;
      }
      .page-only {
        display: block;
        margin-top: 0.2rem;
      }
    `,
  ];
  declare portal: Portal;
  declare entries: UsageView[] | null;
  declare error: string | null;
  #unsubscribe: (() => void) | null = null;

  constructor() {
    super();
    new I18nController(this);
    new ObserveController(this, () => [this.portal.browserTools.pageActivity]);
    this.entries = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.reload();
    // Every invocation the adapter reports is a reason to re-read the server's record.
    this.#unsubscribe = this.portal.browserTools.lastActivity.subscribe(() => void this.reload());
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unsubscribe?.();
  }

  /** Bumped by every reload: calls in quick succession overlap, and only the newest answer counts. */
  #reloading = 0;

  async reload(): Promise<void> {
    const ticket = ++this.#reloading;
    try {
      const { entries } = await this.portal.api.browserActivity();
      if (ticket !== this.#reloading) return;
      this.entries = entries;
      this.error = null;
    } catch (error) {
      if (ticket === this.#reloading) this.error = errorText(error);
    }
  }

  /** The server's record plus what only this page saw (declined, cancelled…), newest first. */
  #rows(): Row[] {
    const server: Row[] = (this.entries ?? []).map((entry) => ({ ...entry, pageOnly: false }));
    const page: Row[] = this.portal.browserTools.pageActivity.value.map((entry) => ({
      at: entry.time,
      tool: entry.tool,
      collection: entry.collection ?? null,
      outcome: entry.outcome,
      requestId: entry.requestId ?? null,
      pageOnly: true,
    }));
    return [...server, ...page].sort((a, b) => b.at.localeCompare(a.at)).slice(0, 100);
  }

  override render() {
    if (this.error) return html`<p class="notice error mt" role="alert">${this.error}</p>`;
    if (!this.entries) return html`<p class="muted mt">${t('app.loading')}</p>`;
    if (this.#rows().length === 0) return html`<p class="muted mt">${t('automation.activity.none')}</p>`;
    return html`<div class="wrap"><table class="mt">
      <thead>
        <tr>
          <th scope="col">${t('automation.activity.time')}</th>
          <th scope="col">${t('automation.activity.tool')}</th>
          <th scope="col">${t('automation.activity.collection')}</th>
          <th scope="col">${t('automation.activity.outcome')}</th>
          <th scope="col">${t('automation.activity.requestId')}</th>
        </tr>
      </thead>
      <tbody>
        ${this.#rows().map(
          (entry) => html`<tr>
            <td class="small">${formatTime(entry.at, { seconds: true })}</td>
            <td class="mono">${entry.tool}</td>
            <td>${entry.collection ?? '—'}</td>
            <td><span class="badge ${TONE[entry.outcome] ?? 'danger'}" title=${hasKey(`errors.${entry.outcome}`) ? t(`errors.${entry.outcome}`) : ''}>${outcomeLabel(entry.outcome)}</span>${entry.pageOnly ? html`<span class="small muted page-only">${t('automation.activity.pageOnly')}</span>` : nothing}</td>
            <td class="mono small">${entry.requestId ?? nothing}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>`;
  }
}

customElements.define('diosc-activity-log', ActivityLog);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-activity-log': ActivityLog;
  }
}
