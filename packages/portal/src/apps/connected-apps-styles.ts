import { css } from 'lit';

/** Styles of the Connected apps page. */
export const connectedAppsStyles = css`
    .badges {
      display: flex;
      flex-wrap: wrap;
      gap: 0.3rem;
    }
    .actions {
      text-align: right;
      white-space: nowrap;
    }
    .actions button {
      padding: 0.35rem 0.7rem;
      font-size: 0.82rem;
    }
    .empty {
      padding: 2rem 0 1rem;
      text-align: center;
    }
    /* On a narrow screen the row's actions wrap instead of widening the table. */
    @media (max-width: 640px) {
      .actions {
        white-space: normal;
        text-align: left;
      }
      .actions button {
        margin: 0.15rem 0;
      }
    }
    .browser {
      border-style: dashed;
      box-shadow: none;
    }
  `;
