import { css } from 'lit';

/** Styles of the review dialog. */
export const reviewDialogStyles = css`
    dialog {
      width: min(760px, calc(100vw - 2rem));
    }
    .shield {
      color: var(--accent);
      display: inline-flex;
    }
    dl {
      display: grid;
      grid-template-columns: max-content 1fr;
      gap: 0.3rem 1rem;
      margin: 1rem 0 0;
      font-size: 0.9rem;
    }
    dt {
      color: var(--muted);
    }
    dd {
      margin: 0;
      word-break: break-all;
    }
    details {
      margin-top: 1rem;
      font-size: 0.88rem;
    }
    summary {
      cursor: pointer;
      color: var(--muted);
    }
    pre.args {
      white-space: pre-wrap;
      word-break: break-word;
      font: 0.8rem/1.5 var(--mono);
      background: var(--surface-2);
      padding: 0.75rem;
      border-radius: var(--radius-sm);
      max-height: 14rem;
      overflow: auto;
    }
  `;
