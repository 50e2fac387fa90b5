import { html, nothing, type TemplateResult } from 'lit';

/** A link target worth following: http, https or mailto, resolved against the page. */
export function safeHref(href: string): string | null {
  try {
    // A backslash is a character of the destination (CommonMark), not a path separator (WHATWG).
    const url = new URL(href.replace(/\\/g, '%5C'), location.href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** A link as the widget draws it: only for a safe target; anything else is its label as text. */
export function linkView(label: unknown, href: string, title?: string): TemplateResult {
  const safe = safeHref(href);
  return safe
    ? html`<a href=${safe} title=${title ?? nothing} target="_blank" rel="noopener noreferrer nofollow">${label}</a>`
    : html`${label}`;
}
