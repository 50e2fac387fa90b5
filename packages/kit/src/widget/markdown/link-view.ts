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

/** Whether links may leave the page's origin in one click. No assistant setting allows it yet. */
export interface LinkPolicy {
  outsideLinks: boolean;
}

/**
 * A link as the widget draws it: only for a safe target, and one click away only on the page's own
 * origin (or mail). A link elsewhere — perhaps the very place the hub refused to navigate to — is
 * its label followed by the full destination, as text: the visitor reads where it goes and copies
 * it deliberately. Anything unsafe is its label alone.
 */
export function linkView(label: unknown, href: string, policy: LinkPolicy, title?: string): TemplateResult {
  const safe = safeHref(href);
  if (!safe) return html`${label}`;
  const url = new URL(safe);
  if (url.protocol !== 'mailto:' && url.origin !== location.origin && !policy.outsideLinks)
    return label === href || label === safe
      ? html`<span class="outside-link">${safe}</span>`
      : html`<span class="outside-link">${label} (${safe})</span>`;
  return html`<a href=${safe} title=${title ?? nothing} target="_blank" rel="noopener noreferrer nofollow">${label}</a>`;
}
