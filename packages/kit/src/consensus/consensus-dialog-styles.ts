import { css } from 'lit';

export const dialogStyles = css`
  dialog {
    box-sizing: border-box;
    width: min(34rem, calc(100vw - 2rem));
    max-height: calc(100vh - 2rem);
    overflow: auto;
    border: 1px solid var(--diosc-border, #d0d5dd);
    border-radius: var(--diosc-radius, 12px);
    background: var(--diosc-bg, #fff);
    color: var(--diosc-fg, #1d2433);
    font: var(--diosc-font, 14px/1.45 system-ui, sans-serif);
    padding: 1.1rem 1.25rem;
    box-shadow: 0 18px 50px rgb(0 0 0 / 0.25);
  }
  dialog::backdrop { background: rgb(15 20 30 / 0.45); }
  header { display: flex; gap: 0.6rem; align-items: center; flex-wrap: wrap; }
  h2 { font-size: 1.1rem; margin: 0.6rem 0 0.2rem; }
  .badge { border-radius: 999px; padding: 0.1rem 0.6rem; font-weight: 600; font-size: 0.8rem; }
  .low { background: #e7f6ec; color: #14532d; }
  .medium { background: #fff4d6; color: #6b4500; }
  .high { background: #fde2e1; color: #8a1c13; }
  .where, .hint { color: var(--diosc-muted, #5b6474); }
  .small { font-size: 0.8rem; margin-bottom: 0; }
  .detail { margin: 0.75rem 0; overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--diosc-border, #e4e7ec); white-space: pre-wrap; word-break: break-word; }
  thead th { font-size: 0.8rem; color: var(--diosc-muted, #5b6474); }
  .before { color: #8a1c13; text-decoration: line-through; text-decoration-color: rgb(138 28 19 / 0.4); }
  .after { color: #14532d; font-weight: 600; }
  .field { display: grid; gap: 0.25rem; margin: 0.6rem 0; }
  input, select, textarea { font: inherit; padding: 0.4rem 0.5rem; border: 1px solid var(--diosc-border, #d0d5dd); border-radius: 8px; background: inherit; color: inherit; }
  textarea { font-family: ui-monospace, monospace; font-size: 0.85rem; }
  .actions { display: flex; gap: 0.5rem; justify-content: flex-end; flex-wrap: wrap; margin-top: 0.75rem; }
  button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 8px; border: 1px solid var(--diosc-border, #d0d5dd); background: transparent; color: inherit; cursor: pointer; }
  button.primary { background: var(--diosc-accent, #2457d6); border-color: transparent; color: var(--diosc-on-accent, #fff); }
  button.danger { background: var(--diosc-danger, #b42318); }
  button:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible { outline: 3px solid var(--diosc-focus, #7aa2ff); outline-offset: 2px; }
  .problem { color: var(--diosc-danger, #b42318); font-weight: 600; }
`;
