import { css } from 'lit';

/** Styles of the item panel. */
export const itemPanelStyles = css`
    header {
      margin-bottom: 1rem;
    }
    header p {
      margin-top: 0.25rem;
    }
    .conflict {
      display: grid;
      gap: 0.5rem;
      justify-items: start;
      margin-bottom: 1rem;
    }
    .notice.error {
      margin-bottom: 1rem;
    }
    dl {
      display: grid;
      grid-template-columns: max-content 1fr;
      gap: 0.25rem 1rem;
      margin: 0 0 0.75rem;
    }
    dt {
      color: var(--muted);
      font-size: 0.85rem;
    }
    dd {
      margin: 0;
    }
    .badges {
      margin-bottom: 0.75rem;
    }
    pre.body {
      white-space: pre-wrap;
      word-break: break-word;
      font: 0.95rem/1.6 var(--font);
      background: var(--surface-2);
      border-radius: var(--radius-sm);
      padding: 1rem;
      margin: 0 0 1rem;
    }
  `;
