import { svg } from 'lit';

/** The handful of line icons the portal uses (24×24, stroke = currentColor, decorative). */
const frame = (body: ReturnType<typeof svg>) =>
  svg`<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${body}</svg>`;

export const icons = {
  collections: frame(
    svg`<path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"/>`,
  ),
  apps: frame(
    svg`<rect x="3" y="3" width="7" height="7" rx="1.5"/><rect x="14" y="3" width="7" height="7" rx="1.5"/><rect x="3" y="14" width="7" height="7" rx="1.5"/><path d="M17.5 14v7M14 17.5h7"/>`,
  ),
  automation: frame(
    svg`<rect x="3" y="4" width="18" height="13" rx="2"/><path d="M8 21h8M12 17v4M7 9l3 2-3 2M12 13h4"/>`,
  ),
  search: frame(svg`<circle cx="11" cy="11" r="7"/><path d="m20 20-3.5-3.5"/>`),
  inbox: frame(svg`<path d="M3 13l3-8h12l3 8v6H3z"/><path d="M3 13h5l1 2h6l1-2h5"/>`),
  storage: frame(svg`<path d="M6 3h9l5 5v13H6z"/><path d="M14 3v6h6"/>`),
  external: frame(svg`<path d="M7 18a4 4 0 0 1-.5-8 6 6 0 0 1 11.5 1.5A3.5 3.5 0 0 1 17.5 18z"/>`),
  signOut: frame(svg`<path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l-5-5 5-5M5 12h11"/>`),
  shield: frame(svg`<path d="M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6z"/>`),
  plus: frame(svg`<path d="M12 5v14M5 12h14"/>`),
  copy: frame(svg`<rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V5a2 2 0 0 1 2-2h10"/>`),
  assistant: frame(svg`<path d="M4 5h16v11H9l-4 4v-4H4z"/><path d="M9 10h.01M12 10h.01M15 10h.01"/>`),
  globe: frame(
    svg`<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18"/>`,
  ),
};

export type IconName = keyof typeof icons;
