import type { ActivityEntry } from '@diosc/webmcp';
import { html, LitElement, nothing } from 'lit';
import type { UsageView } from '../api/owner-api.js';
import type { Portal } from '../app/portal.js';
import { formatTime, hasKey, I18nController, t } from '../i18n/i18n.js';
import { ObserveController } from '../state/observable.js';
import { errorText } from '../ui/error-text.js';
import { outcomeLabel } from '../ui/outcome-label.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { activityLogStyles } from './activity-log-styles.js';

interface Row {
  at: string;
  tool: string;
  collection: string | null;
  outcome: string;
  /** The refusal's code, when the outcome is one (a server row's outcome is the code itself). */
  code: string | null;
  requestId: string | null;
  pageOnly: boolean;
}

const TONE: Record<string, string> = {
  ok: 'ok',
  replayed: 'ok',
  declined: 'warn',
  cancelled: 'warn',
  'in-progress': 'accent',
};

/** Browser-tool invocations as the server recorded them: tool, collection, outcome, request ID, time. */
export class ActivityLog extends LitElement {
  static override properties = {
    portal: { attribute: false },
    entries: { state: true },
    error: { state: true },
  };
  static override styles = [sharedStyles, activityLogStyles];
  declare portal: Portal;
  declare entries: UsageView[] | null;
  declare error: string | null;
  #unsubscribe: (() => void) | null = null;

  constructor() {
    super();
    new I18nController(this);
    new ObserveController(this, () => [
      this.portal.browserTools.pageActivity,
      this.portal.browserTools.inProgress,
      this.portal.session.state,
    ]);
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

  /**
   * Writes still waiting for their answer first, then the server's record plus what only this page
   * saw (declined, cancelled…), newest first.
   */
  #rows(): Row[] {
    const server: Row[] = (this.entries ?? []).map((entry) => ({ ...entry, code: null, pageOnly: false }));
    const { pageActivity, inProgress } = this.portal.browserTools;
    const toRow = (entry: ActivityEntry): Row => ({
      at: entry.time,
      tool: entry.tool,
      collection: entry.collection ?? null,
      outcome: entry.outcome,
      code: entry.code ?? null,
      requestId: entry.requestId ?? null,
      pageOnly: true,
    });
    const done = [...server, ...pageActivity.value.map(toRow)].sort((a, b) => b.at.localeCompare(a.at));
    return [...inProgress.value.map(toRow), ...done].slice(0, 100);
  }

  /** When this session began: rows before it belong to earlier sessions and are marked so. */
  #sessionStart(): string | null {
    const state = this.portal.session.state.value;
    return state.status === 'signed-in' ? state.session.startedAt : null;
  }

  override render() {
    if (this.error) return html`<p class="notice error mt" role="alert">${this.error}</p>`;
    if (!this.entries) return html`<p class="muted mt">${t('app.loading')}</p>`;
    const rows = this.#rows();
    if (rows.length === 0) return html`<p class="muted mt">${t('automation.activity.none')}</p>`;
    const start = this.#sessionStart();
    const current = start === null ? rows : rows.filter((row) => row.at >= start);
    const earlier = start === null ? [] : rows.filter((row) => row.at < start);
    // On a narrow screen the table scrolls inside this region, which takes focus so the keyboard
    // can scroll it too (nothing inside it is focusable).
    return html`<div class="wrap table-wrap" tabindex="0" role="region" aria-label=${t('automation.activity.tableLabel')}><table class="mt">
      <thead>
        <tr>
          <th scope="col">${t('automation.activity.time')}</th>
          <th scope="col">${t('automation.activity.tool')}</th>
          <th scope="col">${t('automation.activity.collection')}</th>
          <th scope="col">${t('automation.activity.outcome')}</th>
          <th scope="col">${t('automation.activity.requestId')}</th>
        </tr>
      </thead>
      ${current.length > 0 ? this.#group(t('automation.activity.thisSession'), current, 'current') : nothing}
      ${earlier.length > 0 ? this.#group(t('automation.activity.earlierSessions'), earlier, 'earlier', t('automation.activity.earlierHint')) : nothing}
    </table></div>`;
  }

  #group(heading: string, rows: Row[], name: string, hint?: string) {
    return html`<tbody class=${name} data-group=${name}>
      <tr class="group">
        <th scope="rowgroup" colspan="5">${heading}${hint ? html` <span class="small muted hint">${hint}</span>` : nothing}</th>
      </tr>
      ${rows.map(
        (entry) => html`<tr>
          <td class="small">${formatTime(entry.at, { seconds: true })}</td>
          <td class="mono">${entry.tool}</td>
          <td>${entry.collection ?? '—'}</td>
          <td data-outcome=${entry.outcome}><span class="badge ${TONE[entry.outcome] ?? 'danger'}" title=${this.#sentence(entry)}>${outcomeLabel(entry.outcome, entry.code)}</span>${entry.pageOnly ? html`<span class="small muted page-only">${t('automation.activity.pageOnly')}</span>` : nothing}</td>
          <td class="mono small">${entry.requestId ?? nothing}</td>
        </tr>`,
      )}
    </tbody>`;
  }

  #sentence(entry: Row): string {
    const code = entry.code ?? entry.outcome;
    return hasKey(`errors.${code}`) ? t(`errors.${code}`) : '';
  }
}

customElements.define('diosc-activity-log', ActivityLog);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-activity-log': ActivityLog;
  }
}
