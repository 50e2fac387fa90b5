import type { AssistantUsageView, AssistantView } from '@diosc/protocol';
import { css, html, LitElement, nothing } from 'lit';
import type { Portal } from '../app/portal.js';
import { currentLanguage, I18nController, t } from '../i18n/i18n.js';
import { codeName } from '../ui/outcome-label.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { assistantStyles } from './assistant-styles.js';
import { serverProblem } from './form-problems.js';
import { barChart } from './usage-chart.js';

const DAYS = 14;

/** Turns, tool calls and model tokens per UTC day (charts, and the same numbers as a table), and errors by code. */
export class UsagePanel extends LitElement {
  static override properties = {
    portal: { attribute: false },
    assistant: { attribute: false },
    usage: { state: true },
    error: { state: true },
  };
  static override styles = [
    sharedStyles,
    assistantStyles,
    css`
      .chart {
        display: block;
        max-width: 42rem;
        margin-top: 0.75rem;
      }
      h2.mt {
        margin-top: 1.5rem;
      }
    `,
  ];
  declare portal: Portal;
  declare assistant: AssistantView;
  declare usage: AssistantUsageView | null;
  declare error: string | null;

  constructor() {
    super();
    new I18nController(this);
    this.usage = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.portal.assistants
      .usage(this.assistant.id, DAYS)
      .then((usage) => {
        this.usage = usage;
      })
      .catch((error: unknown) => {
        this.error = serverProblem(error);
      });
  }

  override render() {
    if (this.error) return html`<p class="notice error" role="alert">${this.error}</p>`;
    const usage = this.usage;
    if (!usage) return html`<p class="muted">${t('app.loading')}</p>`;
    const day = new Intl.DateTimeFormat(currentLanguage(), {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    const labels = usage.days.map((d) => day.format(new Date(`${d.day}T00:00:00Z`)));
    const n = (value: number) => value.toLocaleString(currentLanguage());
    return html`<section class="card" aria-labelledby="activity-heading">
        <h2 id="activity-heading">${t('assistants.usage.activityHeading', { days: usage.days.length })}</h2>
        ${barChart(
          [
            {
              label: t('assistants.usage.turns'),
              color: 'var(--accent)',
              values: usage.days.map((d) => d.turns),
            },
            {
              label: t('assistants.usage.toolCalls'),
              color: 'var(--ok)',
              values: usage.days.map((d) => d.toolCalls),
            },
          ],
          labels,
        )}
        <h2 id="tokens-heading" class="mt">${t('assistants.usage.tokensHeading')}</h2>
        ${barChart(
          [
            {
              label: t('assistants.usage.inputTokens'),
              color: 'var(--accent)',
              values: usage.days.map((d) => d.inputTokens),
            },
            {
              label: t('assistants.usage.outputTokens'),
              color: 'var(--warn)',
              values: usage.days.map((d) => d.outputTokens),
            },
          ],
          labels,
        )}
        <details class="mt"><summary>${t('assistants.usage.table')}</summary>
          <div class="table-wrap"><table class="mt">
            <thead><tr><th scope="col">${t('assistants.usage.day')}</th><th scope="col">${t('assistants.usage.turns')}</th><th scope="col">${t('assistants.usage.toolCalls')}</th><th scope="col">${t('assistants.usage.inputTokens')}</th><th scope="col">${t('assistants.usage.outputTokens')}</th></tr></thead>
            <tbody>${usage.days.map((d, i) => html`<tr><th scope="row">${labels[i]}</th><td>${n(d.turns)}</td><td>${n(d.toolCalls)}</td><td>${n(d.inputTokens)}</td><td>${n(d.outputTokens)}</td></tr>`)}</tbody>
          </table></div>
        </details>
      </section>
      <section class="card mt" aria-labelledby="errors-heading">
        <h2 id="errors-heading">${t('assistants.usage.errorsHeading')}</h2>
        ${
          usage.errors.length === 0
            ? html`<p class="empty muted mt">${t('assistants.usage.noErrors')}</p>`
            : html`<div class="table-wrap"><table class="mt"><thead><tr><th scope="col">${t('assistants.usage.code')}</th><th scope="col">${t('assistants.usage.count')}</th></tr></thead>
              <tbody>${usage.errors.map((e) => html`<tr><td><span class="mono">${e.code}</span> <span class="small muted">${codeName(e.code)}</span></td><td>${n(e.count)}</td></tr>`)}</tbody></table></div>`
        }
      </section>
      ${nothing}`;
  }
}

customElements.define('diosc-usage-panel', UsagePanel);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-usage-panel': UsagePanel;
  }
}
