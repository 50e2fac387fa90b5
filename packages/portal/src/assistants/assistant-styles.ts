import { css } from 'lit';

/** Layout pieces the Assistants area's sections share. */
export const assistantStyles = css`
  .grid2,
  .grid3 {
    display: grid;
    gap: 0 1rem;
    align-items: end;
    grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr));
  }
  .grid3 {
    grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr));
  }
  textarea.short {
    min-height: 6rem;
  }
  textarea[aria-invalid='true'],
  select[aria-invalid='true'] {
    border-color: var(--danger);
  }
  .field-error {
    color: var(--danger);
    font-weight: 600;
    margin: 0;
  }
  .grow {
    flex: 1;
    min-width: 12rem;
  }
  .narrow {
    max-width: 14rem;
  }
  .label {
    font-weight: 600;
    font-size: 0.88rem;
  }
  pre {
    font: 0.82rem/1.45 var(--mono);
    background: var(--surface-2);
    border: 1px solid var(--border);
    border-radius: var(--radius-sm);
    padding: 0.7rem 0.8rem;
    margin: 0;
    overflow: auto;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .provider-error {
    margin-top: 0.4rem;
    background: transparent;
  }
  .list {
    display: grid;
    gap: 0.75rem;
    padding: 0;
    margin: 0;
    list-style: none;
  }
  .item {
    border: 1px solid var(--border);
    border-radius: var(--radius-sm);
    padding: 0.8rem 0.9rem;
  }
  .item-head {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .checks {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4rem 1rem;
  }
  ul.checks {
    list-style: none;
    padding: 0;
  }
  .checks label {
    font-weight: 500;
    display: inline-flex;
    gap: 0.35rem;
    align-items: center;
  }
`;
