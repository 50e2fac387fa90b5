import { css } from 'lit';
import { sharedStyles } from '../widget/widget-styles.js';

export const dialogStyles = [
  sharedStyles,
  css`
    dialog { box-sizing: border-box; width: min(34rem, 100vw - 2rem); max-height: calc(100vh - 2rem); overflow: auto; padding: 1.1rem 1.25rem; color: inherit; }
    dialog::backdrop { background: #0f141e73; }
    .head { display: flex; gap: 0.6rem; align-items: center; flex-wrap: wrap; }
    h2 { font-size: 1.1rem; margin: 0.6rem 0 0.2rem; }
    .badge { border-radius: 999px; padding: 0.1rem 0.6rem; font-weight: 600; font-size: 0.8em; }
    .low { background: #e7f6ec; color: #14532d; }
    .medium { background: #fff4d6; color: #6b4500; }
    .high { background: #fde2e1; color: #8a1c13; }
    .detail { margin: 0.75rem 0; overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; vertical-align: top; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--diosc-border, #e4e7ec); white-space: pre-wrap; overflow-wrap: anywhere; }
    thead th { font-size: 0.8em; }
    .before { color: #8a1c13; text-decoration: line-through; }
    .after { color: #14532d; font-weight: 600; }
    .field { display: grid; gap: 0.25rem; margin: 0.6rem 0; }
    .actions { display: flex; gap: 0.5rem; justify-content: end; flex-wrap: wrap; margin-top: 0.75rem; }
  `,
];
