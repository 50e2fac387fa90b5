import { css } from 'lit';

/** Styles of the activity log: a table in groups, this session's calls first. */
export const activityLogStyles = css`
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
      tr.group th {
        text-transform: none;
        letter-spacing: normal;
        font-size: 0.85rem;
        color: var(--text);
        background: var(--surface-2);
      }
      tbody.earlier td {
        color: var(--muted);
      }
      .hint {
        font-weight: 400;
      }
    `;
