import {
  type AssistantView,
  AUDIT_KINDS,
  AUDIT_OUTCOMES,
  type AuditKind,
  type AuditOutcome,
  type AuditRecordView,
} from '@diosc/protocol';
import { css, html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { formatTime, I18nController, t } from '../i18n/i18n.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { assistantStyles } from './assistant-styles.js';
import type { AuditFilter } from './assistants-api.js';
import { serverProblem } from './form-problems.js';

/** The periods the filter offers, as durations the API takes for `since` ('' is all that is kept). */
export const AUDIT_PERIODS = ['24h', '7d', '30d', ''] as const;
type Period = (typeof AUDIT_PERIODS)[number];

/**
 * The audit of decisions for this assistant (and its owner's account-level ones): who decided what,
 * when, with what outcome, from which instance — newest first, filtered by kind, outcome and period.
 * Every value is shown as text; ids and digests are the record's, never a secret.
 */
export class AuditPanel extends LitElement {
  static override properties = {
    portal: { attribute: false },
    assistant: { attribute: false },
    records: { state: true },
    more: { state: true },
    error: { state: true },
    kind: { state: true },
    outcome: { state: true },
    period: { state: true },
  };
  static override styles = [
    sharedStyles,
    assistantStyles,
    css`
      .filters {
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem;
        align-items: end;
      }
      .filters .field {
        margin-bottom: 0;
        min-width: 11rem;
      }
    `,
  ];
  declare portal: Portal;
  declare assistant: AssistantView;
  declare records: AuditRecordView[] | null;
  declare more: boolean;
  declare error: string | null;
  declare kind: AuditKind | '';
  declare outcome: AuditOutcome | '';
  declare period: Period;

  constructor() {
    super();
    new I18nController(this);
    this.records = null;
    this.more = false;
    this.error = null;
    this.kind = '';
    this.outcome = '';
    this.period = '7d';
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('assistant')) void this.load();
  }

  #filter(): AuditFilter {
    return {
      ...(this.kind ? { kind: this.kind } : {}),
      ...(this.outcome ? { outcome: this.outcome } : {}),
      ...(this.period ? { since: this.period } : {}),
    };
  }

  /** The first page for the current filter, or (`older`) the page before the last record shown. */
  async load(older = false): Promise<void> {
    this.error = null;
    const last = older ? this.records?.at(-1) : undefined;
    try {
      const page = await this.portal.assistants.audit(this.assistant.id, {
        ...this.#filter(),
        ...(last ? { before: last.id } : {}),
      });
      this.records = last ? [...(this.records ?? []), ...page.records] : page.records;
      this.more = page.more;
    } catch (error) {
      this.error = serverProblem(error);
    }
  }

  #pick =
    <K extends 'kind' | 'outcome' | 'period'>(name: K) =>
    (event: Event) => {
      this[name] = (event.target as HTMLSelectElement).value as this[K];
      void this.load();
    };

  override render() {
    return html`<section class="card" aria-labelledby="audit-heading">
      <h2 id="audit-heading">${t('assistants.audit.heading')}</h2>
      <p class="small muted">${t('assistants.audit.intro')}</p>
      <div class="filters mt">
        <div class="field"><label for="audit-kind">${t('assistants.audit.kind')}</label>
          <select id="audit-kind" @change=${this.#pick('kind')}>
            <option value="" ?selected=${this.kind === ''}>${t('assistants.audit.all')}</option>
            ${AUDIT_KINDS.map((kind) => html`<option value=${kind} ?selected=${this.kind === kind}>${t(`assistants.audit.kinds.${kind}`)}</option>`)}
          </select></div>
        <div class="field"><label for="audit-outcome">${t('assistants.audit.outcome')}</label>
          <select id="audit-outcome" @change=${this.#pick('outcome')}>
            <option value="" ?selected=${this.outcome === ''}>${t('assistants.audit.all')}</option>
            ${AUDIT_OUTCOMES.map((outcome) => html`<option value=${outcome} ?selected=${this.outcome === outcome}>${t(`assistants.audit.outcomes.${outcome}`)}</option>`)}
          </select></div>
        <div class="field"><label for="audit-period">${t('assistants.audit.period')}</label>
          <select id="audit-period" @change=${this.#pick('period')}>
            ${AUDIT_PERIODS.map((period) => html`<option value=${period} ?selected=${this.period === period}>${t(`assistants.audit.periods.${period || 'all'}`)}</option>`)}
          </select></div>
      </div>
      ${this.error ? html`<p class="notice error mt" role="alert">${this.error}</p>` : nothing}
      ${this.#table()}
    </section>`;
  }

  #table() {
    const records = this.records;
    if (records === null) return html`<p class="muted mt">${t('app.loading')}</p>`;
    if (records.length === 0) return html`<p class="empty muted mt">${t('assistants.audit.none')}</p>`;
    return html`<div class="table-wrap"><table class="mt">
        <thead><tr>
          <th scope="col">${t('assistants.audit.time')}</th>
          <th scope="col">${t('assistants.audit.who')}</th>
          <th scope="col">${t('assistants.audit.what')}</th>
          <th scope="col">${t('assistants.audit.outcome')}</th>
          <th scope="col">${t('assistants.audit.instance')}</th>
        </tr></thead>
        <tbody>${records.map(
          (record) => html`<tr data-audit=${record.id}>
            <td>${formatTime(record.at, { seconds: true })}</td>
            <td>${t(`assistants.audit.actors.${record.actor.kind}`)}<br /><span class="mono small">${record.actor.id}</span></td>
            <td>${t(`assistants.audit.kinds.${record.kind}`)}: <span class="mono" data-subject>${record.subject}</span>
              ${record.editedFields.length ? html`<br /><span class="small">${t('assistants.audit.edited', { fields: record.editedFields.join(', ') })}</span>` : nothing}
              ${record.argsDigest ? html`<br /><span class="mono small muted" title=${record.argsDigest}>${record.argsDigest.slice(0, 12)}…</span>` : nothing}
              ${record.assistantId === null ? html`<br /><span class="small muted">${t('assistants.audit.accountLevel')}</span>` : nothing}</td>
            <td><span class="badge">${t(`assistants.audit.outcomes.${record.outcome}`)}</span></td>
            <td class="mono small">${record.instance}</td>
          </tr>`,
        )}</tbody></table></div>
      ${this.more ? html`<button class="mt" id="audit-older" @click=${() => void this.load(true)}>${t('assistants.audit.older')}</button>` : nothing}`;
  }
}

customElements.define('diosc-audit-panel', AuditPanel);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-audit-panel': AuditPanel;
  }
}
