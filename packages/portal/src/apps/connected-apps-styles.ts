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
    .browser {
      border-style: dashed;
      box-shadow: none;
    }
  `;
