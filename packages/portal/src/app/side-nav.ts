import { css, html, LitElement } from 'lit';
import { I18nController, t } from '../i18n/i18n.js';
import { PATHS, type Route } from '../router/router.js';
import { type IconName, icons } from '../ui/icons.js';
import { sharedStyles } from '../ui/shared-styles.js';

const ENTRIES: { path: string; page: Route['page']; label: string; icon: IconName; keys: string }[] = [
  {
    path: PATHS.collections,
    page: 'collections',
    label: 'nav.collections',
    icon: 'collections',
    keys: 'g c',
  },
  {
    path: PATHS.connectedApps,
    page: 'connected-apps',
    label: 'nav.connectedApps',
    icon: 'apps',
    keys: 'g a',
  },
  {
    path: PATHS.assistants,
    page: 'assistants',
    label: 'nav.assistants',
    icon: 'assistant',
    keys: 'g s',
  },
  {
    path: PATHS.automationHub,
    page: 'automation-hub',
    label: 'nav.automationHub',
    icon: 'automation',
    keys: 'g h',
  },
];

/** The primary navigation. Each entry is a real link; the current one carries `aria-current`. */
export class SideNav extends LitElement {
  static override properties = { page: { type: String } };
  static override styles = [
    sharedStyles,
    css`
      nav {
        display: grid;
        gap: 0.2rem;
      }
      a {
        display: flex;
        align-items: center;
        gap: 0.7rem;
        padding: 0.55rem 0.75rem;
        border-radius: var(--radius-sm);
        color: var(--muted);
        text-decoration: none;
        font-weight: 600;
      }
      a:hover {
        background: var(--surface-2);
        color: var(--text);
      }
      a[aria-current='page'] {
        background: var(--accent-soft);
        color: var(--accent);
      }
      a span {
        flex: 1;
        min-width: 0;
      }
      kbd {
        flex: none;
        white-space: nowrap;
        margin-left: auto;
        font: 0.75rem var(--mono);
        color: inherit;
      }
    `,
  ];
  declare page: Route['page'];

  constructor() {
    super();
    new I18nController(this);
    this.page = 'collections';
  }

  override render() {
    return html`<nav aria-label=${t('nav.label')}>
      ${ENTRIES.map(
        (entry) =>
          html`<a href=${entry.path} aria-current=${entry.page === this.page ? 'page' : 'false'}
            >${icons[entry.icon]}<span>${t(entry.label)}</span><kbd aria-hidden="true">${entry.keys}</kbd></a
          >`,
      )}
    </nav>`;
  }
}

customElements.define('diosc-side-nav', SideNav);
