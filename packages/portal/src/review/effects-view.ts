import type { MessageMetadata } from '@diosc/protocol';
import type { ReviewReceipt } from '@diosc/webmcp';
import { css, html, nothing } from 'lit';
import { t } from '../i18n/i18n.js';

type Side = {
  title?: string;
  content?: string;
  contentType?: string;
  metadata?: MessageMetadata;
} | null;

function metadataText(metadata: MessageMetadata | undefined): string | null {
  if (!metadata) return null;
  const entries = Object.entries(metadata).filter(([name]) => name !== 'from' && name !== 'receivedAt');
  return entries.length
    ? entries.map(([name, value]) => `${name}: ${JSON.stringify(value)}`).join('\n')
    : null;
}

function side(heading: string, value: Side, tone: 'before' | 'after') {
  if (!value) {
    return html`<div class="side ${tone}"><h3>${heading}</h3><p class="muted small">${t(`review.${tone === 'before' ? 'nothingBefore' : 'nothingAfter'}`)}</p></div>`;
  }
  const meta = metadataText(value.metadata);
  return html`<div class="side ${tone}">
    <h3>${heading}</h3>
    ${value.title !== undefined ? html`<p><span class="label">${t('review.fieldTitle')}</span> ${value.title}</p>` : nothing}
    ${value.contentType !== undefined ? html`<p><span class="label">${t('review.fieldType')}</span> <span class="mono">${value.contentType}</span></p>` : nothing}
    ${value.content !== undefined ? html`<pre>${value.content}</pre>` : nothing}
    ${meta ? html`<pre class="meta">${meta}</pre>` : nothing}
  </div>`;
}

/**
 * The effects of a reviewed change, from the frozen receipt: before and after side by side. All of
 * it is rendered as text (Lit escapes every value); nothing here is editable.
 */
export function effectsView(receipt: Readonly<ReviewReceipt>) {
  const { effects } = receipt;
  const before: Side = effects.before
    ? {
        title: effects.before.title,
        content: effects.before.content,
        contentType: effects.before.contentType,
        metadata: effects.before.metadata as Record<string, unknown> | undefined,
      }
    : null;
  return html`<div class="effects">
    ${side(t('review.before'), before, 'before')}
    ${side(t('review.after'), effects.after, 'after')}
  </div>`;
}

export const effectsStyles = css`
  .effects {
    display: grid;
    grid-template-columns: 1fr 1fr;
    gap: 0.75rem;
    margin-top: 1rem;
  }
  .side {
    border: 1px solid var(--border);
    border-radius: var(--radius-sm);
    padding: 0.75rem;
    min-width: 0;
  }
  .side.before {
    background: var(--danger-soft);
    border-color: color-mix(in srgb, var(--danger) 25%, var(--border));
  }
  .side.after {
    background: var(--ok-soft);
    border-color: color-mix(in srgb, var(--ok) 25%, var(--border));
  }
  .side h3 {
    margin: 0 0 0.5rem;
    font-size: 0.75rem;
    text-transform: uppercase;
    letter-spacing: 0.05em;
    color: var(--muted);
  }
  .side p {
    margin: 0 0 0.35rem;
    font-size: 0.9rem;
  }
  .label {
    color: var(--muted);
    font-size: 0.8rem;
  }
  pre {
    white-space: pre-wrap;
    word-break: break-word;
    margin: 0.35rem 0 0;
    font: 0.82rem/1.5 var(--mono);
    max-height: 12rem;
    overflow: auto;
    color: var(--text);
  }
`;
