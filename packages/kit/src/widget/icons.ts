import { svg } from 'lit';

/** Inline icons (no icon font, no emoji that a system may not have). */
const icon = (path: ReturnType<typeof svg>) =>
  svg`<svg viewBox="0 0 24 24" width="1.2em" height="1.2em" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${path}</svg>`;

export const icons = {
  chat: icon(svg`<path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z"/>`),
  close: icon(svg`<path d="M18 6 6 18M6 6l12 12"/>`),
  attach: icon(
    svg`<path d="m21.4 11.1-9.2 9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5"/>`,
  ),
  download: icon(svg`<path d="M12 3v12m0 0-5-5m5 5 5-5M5 21h14"/>`),
};
