import { css } from 'lit';

/** Styles of layout of the signed-in frame. */
export const appRootStyles = css`
    .skip-link {
      position: absolute;
      left: 0.75rem;
      top: -4rem;
      z-index: 20;
      padding: 0.6rem 1rem;
      border-radius: var(--radius-sm);
      background: var(--accent);
      color: var(--accent-ink);
      font-weight: 650;
      text-decoration: none;
    }
    .skip-link:focus {
      top: 0.75rem;
    }
    .splash {
      display: grid;
      place-items: center;
      min-height: 100vh;
      color: var(--muted);
    }
    .frame {
      display: grid;
      grid-template-columns: 250px 1fr;
      min-height: 100vh;
    }
    .side-col {
      border-right: 1px solid var(--border);
      background: var(--surface);
    }
    aside {
      position: sticky;
      top: 0;
      height: 100vh;
      padding: 1.1rem 0.9rem;
      display: flex;
      flex-direction: column;
      gap: 1.2rem;
    }
    .brand {
      display: flex;
      align-items: center;
      gap: 0.55rem;
      padding: 0.3rem 0.6rem;
      font-weight: 800;
      font-size: 1.15rem;
      color: var(--text);
      text-decoration: none;
      letter-spacing: -0.01em;
    }
    .brand svg {
      color: var(--accent);
    }
    .hint {
      margin-top: auto;
      padding: 0 0.6rem;
    }
    .main {
      min-width: 0;
    }
    header {
      display: flex;
      align-items: center;
      gap: 0.75rem;
      padding: 0.75rem 2rem;
      border-bottom: 1px solid var(--border);
      background: color-mix(in srgb, var(--surface) 85%, transparent);
      position: sticky;
      top: 0;
      z-index: 2;
      backdrop-filter: blur(6px);
    }
    .palette-button {
      min-width: 280px;
      color: var(--muted);
      font-weight: 500;
      background: var(--surface-2);
    }
    .palette-button kbd {
      margin-left: auto;
      font: 0.72rem var(--mono);
      border: 1px solid var(--border);
      border-radius: 5px;
      padding: 0.05rem 0.35rem;
      background: var(--surface);
    }
    .account {
      max-width: 14rem;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    main {
      padding: 2rem;
      max-width: 1100px;
      outline: none;
    }
    .expired {
      display: flex;
      align-items: center;
      justify-content: space-between;
      flex-wrap: wrap;
      gap: 1rem;
      margin-bottom: 1.5rem;
    }
    @media (max-width: 760px) {
      .frame {
        grid-template-columns: 1fr;
      }
      aside {
        position: static;
        height: auto;
      }
      .hint {
        display: none;
      }
      .palette-button {
        min-width: 0;
      }
      /* Icon only: the label stays in the button's accessible name, at no size. */
      .palette-button .label {
        font-size: 0;
      }
      .palette-button kbd,
      .account {
        display: none;
      }
      header {
        padding: 0.6rem 1rem;
        gap: 0.5rem;
      }
      main {
        padding: 1.25rem 1rem;
      }
      aside {
        gap: 0.6rem;
      }
    }
  `;
