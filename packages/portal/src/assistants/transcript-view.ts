import type {
  FileDescriptor,
  TranscriptMessage,
  TranscriptToolCall,
  TranscriptTurn,
  TranscriptView,
} from '@diosc/protocol';
import { css, html, LitElement, nothing } from 'lit';
import { formatTime, I18nController, t } from '../i18n/i18n.js';
import { sharedStyles } from '../ui/shared-styles.js';
import { assistantStyles } from './assistant-styles.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * One conversation as it happened: messages, and under each turn its tool calls with their
 * interrupts, Consensus decisions (an Edit shows what the model proposed and what ran) and file
 * chips. Every text the model, a tool or a visitor produced is bound as text — Lit escapes it —
 * so a transcript can never inject markup into the portal.
 */
export class TranscriptViewElement extends LitElement {
  static override properties = { transcript: { attribute: false } };
  static override styles = [
    sharedStyles,
    assistantStyles,
    css`
      .message {
        border-left: 3px solid var(--border);
        padding: 0.4rem 0 0.4rem 0.9rem;
        margin: 0.9rem 0;
      }
      .message.user {
        border-color: var(--accent);
      }
      .text {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        margin: 0.3rem 0 0;
      }
      .call {
        border: 1px solid var(--border);
        border-radius: var(--radius-sm);
        padding: 0.6rem 0.8rem;
        margin: 0.5rem 0;
      }
      .call pre {
        margin-top: 0.35rem;
        max-height: 14rem;
      }
      .chip {
        display: inline-flex;
        gap: 0.4rem;
        border: 1px solid var(--border);
        border-radius: 999px;
        padding: 0.15rem 0.6rem;
        font-size: 0.8rem;
      }
    `,
  ];
  declare transcript: TranscriptView;

  constructor() {
    super();
    new I18nController(this);
  }

  override render() {
    const { messages, turns } = this.transcript;
    const byId = new Map(turns.map((turn) => [turn.id, turn]));
    const answered = new Set(messages.filter((m) => m.role === 'assistant').map((m) => m.turnId));
    const shown = new Set<string>();
    const parts = messages.map((message) => {
      const turn = message.turnId ? byId.get(message.turnId) : undefined;
      if (turn) shown.add(turn.id);
      if (message.role === 'user')
        return html`${this.#message(message)}${turn && !answered.has(turn.id) ? this.#turn(turn) : nothing}`;
      return html`${turn ? this.#turn(turn) : nothing}${this.#message(message)}`;
    });
    // A turn no message names (it failed before any text) still shows what it did.
    const orphans = turns.filter((turn) => !shown.has(turn.id)).map((turn) => this.#turn(turn));
    return html`<div class="transcript">${parts}${orphans}</div>`;
  }

  #message(message: TranscriptMessage) {
    return html`<article class=${`message ${message.role}`} aria-label=${t(`assistants.transcript.${message.role}`)}>
      <div class="item-head small muted"><strong>${t(`assistants.transcript.${message.role}`)}</strong><span>${formatTime(message.createdAt, { seconds: true })}</span></div>
      ${message.text ? html`<p class="text" data-role=${message.role}>${message.text}</p>` : nothing}
      ${this.#files(message.files)}
    </article>`;
  }

  #turn(turn: TranscriptTurn) {
    if (turn.toolCalls.length === 0 && !turn.error) return nothing;
    return html`<div class="turn">
      ${turn.toolCalls.map((call) => this.#call(call))}
      ${turn.error ? html`<p class="notice error small" data-turn-error>${t('assistants.transcript.turnFailed', { code: turn.error.code })} ${turn.error.message}</p>` : nothing}
    </div>`;
  }

  #call(call: TranscriptToolCall) {
    return html`<section class="call" data-tool=${call.tool} aria-label=${t('assistants.transcript.toolCall', { tool: call.tool })}>
      <div class="item-head">
        <strong class="mono">${call.tool}</strong>
        <span class="badge">${t(`assistants.transcript.kind.${call.kind}`)}</span>
        ${call.severity ? html`<span class="badge warn">${t(`assistants.severity.${call.severity}`)}</span>` : nothing}
        ${
          call.result
            ? html`<span class=${`badge ${call.result.ok ? 'ok' : 'danger'}`}>${call.result.ok ? t('assistants.transcript.ok') : t('assistants.transcript.failed')}</span>`
            : html`<span class="badge">${t(`assistants.transcript.status.${call.status}`)}</span>`
        }
        <span class="spacer"></span><span class="small muted">${formatTime(call.createdAt, { seconds: true })}</span>
      </div>
      ${this.#consensus(call)} ${this.#interrupt(call)}
      <details><summary class="small">${t('assistants.transcript.args')}</summary><pre>${json(call.args)}</pre></details>
      ${call.result ? html`<details><summary class="small">${t('assistants.transcript.result')}</summary><pre data-result>${call.result.text}</pre></details>` : nothing}
      ${this.#files(call.files)}
    </section>`;
  }

  #consensus(call: TranscriptToolCall) {
    const consensus = call.consensus;
    if (!consensus) return nothing;
    const label =
      consensus.state === 'decided' && consensus.decision
        ? t(`assistants.transcript.decision.${consensus.decision}`)
        : t(`assistants.transcript.consensusState.${consensus.state}`);
    return html`<div class="small mt" data-consensus=${consensus.decision ?? consensus.state}>
      <strong>${t('assistants.transcript.consensus')}</strong> ${label}
      ${consensus.reason ? html`<span> — ${t('assistants.transcript.reason')}: ${consensus.reason}</span>` : nothing}
      ${
        consensus.decision === 'edit'
          ? html`<p>${t('assistants.transcript.changed', { names: (consensus.changed ?? []).join(', ') })}</p>
            <div class="grid2">
              <div><span class="label">${t('assistants.transcript.proposed')}</span><pre data-proposed>${json(consensus.proposedArgs ?? {})}</pre></div>
              <div><span class="label">${t('assistants.transcript.ran')}</span><pre data-ran>${json(call.args)}</pre></div>
            </div>`
          : nothing
      }
    </div>`;
  }

  #interrupt(call: TranscriptToolCall) {
    const interrupt = call.interrupt;
    if (!interrupt) return nothing;
    const decision = interrupt.decision;
    return html`<p class="small mt" data-interrupt=${interrupt.state}>
      <strong>${t('assistants.transcript.interrupt')}</strong> ${t(`assistants.transcript.interruptState.${interrupt.state}`)}
      ${decision ? html` · ${t(`assistants.transcript.decision.${decision.decision}`)}${decision.changed?.length ? ` (${decision.changed.join(', ')})` : ''}${decision.reason ? ` — ${decision.reason}` : ''}` : nothing}
    </p>`;
  }

  #files(files: readonly FileDescriptor[]) {
    if (files.length === 0) return nothing;
    return html`<ul class="checks mt" aria-label=${t('assistants.transcript.files')}>${files.map(
      (file) =>
        html`<li class="chip" data-file=${file.fileId}><span>${file.filename}</span><span class="muted">${file.format} · ${formatBytes(file.sizeBytes)}</span></li>`,
    )}</ul>`;
  }
}

customElements.define('diosc-transcript-view', TranscriptViewElement);

declare global {
  interface HTMLElementTagNameMap {
    'diosc-transcript-view': TranscriptViewElement;
  }
}
