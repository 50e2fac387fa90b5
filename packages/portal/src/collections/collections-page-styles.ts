import { css } from 'lit';

/** Styles of the collections page. */
export const collectionsPageStyles = css`
    .layout {
      display: grid;
      grid-template-columns: 220px 280px 1fr;
      gap: 1rem;
      align-items: start;
    }
    .layout > .card {
      margin-top: 0;
    }
    .list {
      padding: 0.5rem;
    }
    .list > p {
      padding: 0.75rem;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      gap: 0.15rem;
    }
    li a {
      display: flex;
      align-items: center;
      gap: 0.6rem;
      padding: 0.55rem 0.65rem;
      border-radius: var(--radius-sm);
      color: var(--text);
      text-decoration: none;
    }
    li a:hover {
      background: var(--surface-2);
    }
    li a[aria-current='page'] {
      background: var(--accent-soft);
    }
    li a.unread strong::before {
      content: '';
      display: inline-block;
      width: 0.45rem;
      height: 0.45rem;
      border-radius: 50%;
      background: var(--accent);
      margin-right: 0.4rem;
      vertical-align: middle;
    }
    .grow {
      flex: 1;
      min-width: 0;
      display: grid;
    }
    .grow strong {
      font-weight: 600;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .kind-icon {
      color: var(--accent);
      display: inline-flex;
    }
    .detail {
      min-height: 20rem;
    }
    .empty {
      text-align: center;
      padding: 4rem 1rem;
    }
    @media (max-width: 1000px) {
      .layout {
        grid-template-columns: 1fr;
      }
    }
  `;
