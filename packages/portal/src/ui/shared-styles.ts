import { css } from 'lit';

/** Controls, cards and layout helpers every page shares. */
export const sharedStyles = css`
  :host {
    display: block;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h1,
  h2,
  h3 {
    margin: 0;
    line-height: 1.25;
  }
  h1 {
    font-size: 1.6rem;
    font-weight: 700;
    letter-spacing: -0.01em;
  }
  h2 {
    font-size: 1.1rem;
    font-weight: 650;
  }
  h3 {
    font-size: 0.95rem;
    font-weight: 650;
  }
  p {
    margin: 0;
  }
  a {
    color: var(--accent);
  }
  .mt {
    margin-top: 0.5rem;
  }
  .muted {
    color: var(--muted);
  }
  .small {
    font-size: 0.85rem;
  }
  .mono {
    font-family: var(--mono);
    font-size: 0.85em;
  }
  .page-head {
    display: flex;
    align-items: flex-end;
    justify-content: space-between;
    gap: 1rem;
    margin-bottom: 1.5rem;
    flex-wrap: wrap;
  }
  .page-head p {
    margin-top: 0.35rem;
    max-width: 60ch;
  }
  .card {
    background: var(--surface);
    border: 1px solid var(--border);
    border-radius: var(--radius);
    box-shadow: var(--shadow);
    padding: 1.25rem;
  }
  .card + .card,
  .stack > * + * {
    margin-top: 1rem;
  }
  .row {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    flex-wrap: wrap;
  }
  .spacer {
    flex: 1;
  }
  button,
  .btn {
    font: inherit;
    font-weight: 600;
    font-size: 0.9rem;
    display: inline-flex;
    align-items: center;
    gap: 0.4rem;
    padding: 0.5rem 0.95rem;
    border-radius: var(--radius-sm);
    border: 1px solid var(--border);
    background: var(--surface);
    color: var(--text);
    cursor: pointer;
    text-decoration: none;
    line-height: 1.2;
  }
  button:hover,
  .btn:hover {
    background: var(--surface-2);
  }
  button:focus-visible,
  .btn:focus-visible,
  input:focus-visible,
  textarea:focus-visible,
  select:focus-visible,
  summary:focus-visible,
  a:focus-visible {
    outline: var(--focus-ring);
    outline-offset: 2px;
  }
  /* A region that takes focus only to receive it (a page's main, after navigation) shows no ring. */
  [tabindex='-1']:focus {
    outline: none;
  }
  /* Busy or unchanged controls stay focusable (aria-disabled), so focus never falls to the page. */
  button:disabled,
  button[aria-disabled='true'] {
    opacity: 0.55;
    cursor: not-allowed;
  }
  .primary {
    background: var(--accent);
    border-color: var(--accent);
    color: var(--accent-ink);
  }
  .primary:hover {
    background: var(--accent);
    filter: brightness(1.08);
  }
  .danger {
    color: var(--danger);
    border-color: color-mix(in srgb, var(--danger) 40%, var(--border));
  }
  .danger:hover {
    background: var(--danger-soft);
  }
  .ghost {
    border-color: transparent;
    background: transparent;
  }
  label {
    font-weight: 600;
    font-size: 0.88rem;
  }
  input[type='text'],
  input[type='email'],
  input[type='password'],
  input[type='search'],
  input[type='number'],
  textarea,
  select {
    font: inherit;
    width: 100%;
    padding: 0.55rem 0.7rem;
    border-radius: var(--radius-sm);
    border: 1px solid var(--control-border);
    background: var(--surface);
    color: var(--text);
  }
  input[aria-invalid='true'] {
    border-color: var(--danger);
  }
  textarea {
    font-family: var(--mono);
    font-size: 0.88rem;
    min-height: 14rem;
    resize: vertical;
  }
  fieldset {
    border: none;
    padding: 0;
    margin: 0 0 1rem;
    min-width: 0;
  }
  legend {
    font-weight: 600;
    font-size: 0.88rem;
    padding: 0;
    margin-bottom: 0.25rem;
  }
  .field {
    display: grid;
    gap: 0.35rem;
    margin-bottom: 1rem;
  }
  .badge {
    display: inline-flex;
    align-items: center;
    gap: 0.3rem;
    font-size: 0.75rem;
    font-weight: 650;
    padding: 0.15rem 0.55rem;
    border-radius: 999px;
    background: var(--surface-2);
    color: var(--muted);
    white-space: nowrap;
  }
  .badge.ok {
    background: var(--ok-soft);
    color: var(--ok);
  }
  .badge.warn {
    background: var(--warn-soft);
    color: var(--warn);
  }
  .badge.danger {
    background: var(--danger-soft);
    color: var(--danger);
  }
  .badge.accent {
    background: var(--accent-soft);
    color: var(--accent);
  }
  .notice {
    border-radius: var(--radius-sm);
    padding: 0.75rem 1rem;
    background: var(--surface-2);
  }
  .notice.error {
    background: var(--danger-soft);
    color: var(--danger);
  }
  .notice.warn {
    background: var(--warn-soft);
    color: var(--warn);
  }
  .notice.ok {
    background: var(--ok-soft);
    color: var(--ok);
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-size: 0.9rem;
  }
  th {
    text-align: left;
    font-size: 0.75rem;
    text-transform: uppercase;
    letter-spacing: 0.04em;
    color: var(--muted);
    font-weight: 650;
    padding: 0.5rem 0.6rem;
    border-bottom: 1px solid var(--border);
  }
  td {
    padding: 0.6rem;
    border-bottom: 1px solid var(--border);
    vertical-align: top;
  }
  tr:last-child td {
    border-bottom: none;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  /* A data table keeps its columns on a narrow screen and scrolls inside this, not the page. */
  .table-wrap {
    overflow-x: auto;
    max-width: 100%;
    /* Contains the visually hidden labels inside it: absolutely placed, they would otherwise be laid
       out against the page and widen it from beyond the scroller. */
    position: relative;
  }
  dialog {
    border: 1px solid var(--border);
    border-radius: var(--radius);
    background: var(--surface);
    color: var(--text);
    padding: 0;
    width: min(640px, calc(100vw - 2rem));
    box-shadow: 0 20px 60px rgb(10 12 25 / 30%);
  }
  dialog::backdrop {
    background: rgb(15 18 30 / 45%);
  }
  .dialog-body {
    padding: 1.4rem 1.5rem;
  }
  .dialog-actions {
    display: flex;
    justify-content: flex-end;
    gap: 0.5rem;
    padding: 1rem 1.5rem;
    border-top: 1px solid var(--border);
    background: var(--surface-2);
    border-radius: 0 0 var(--radius) var(--radius);
  }
`;
