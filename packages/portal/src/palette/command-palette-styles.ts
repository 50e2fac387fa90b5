import { css } from 'lit';

/** Styles of the command palette. */
export const commandPaletteStyles = css`
    dialog {
      width: min(600px, calc(100vw - 2rem));
      margin-top: 12vh;
    }
    .search {
      display: flex;
      align-items: center;
      gap: 0.6rem;
      padding: 0.8rem 1rem;
      border-bottom: 1px solid var(--border);
      color: var(--muted);
    }
    .search input {
      border: none;
      padding: 0.3rem 0;
      font-size: 1.05rem;
      box-shadow: none;
      background: transparent;
    }
    .search input:focus-visible {
      box-shadow: none;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0.4rem;
      max-height: 22rem;
      overflow: auto;
    }
    li[role='option'] {
      display: flex;
      align-items: center;
      gap: 0.75rem;
      padding: 0.6rem 0.75rem;
      border-radius: var(--radius-sm);
      cursor: pointer;
    }
    li[aria-selected='true'] {
      background: var(--accent-soft);
      color: var(--accent);
    }
    .title {
      flex: 1;
      font-weight: 600;
    }
    .none {
      padding: 1rem;
      text-align: center;
    }
    kbd {
      font: 0.72rem var(--mono);
      border: 1px solid var(--border);
      border-radius: 5px;
      padding: 0.05rem 0.35rem;
      color: var(--muted);
    }
  `;
