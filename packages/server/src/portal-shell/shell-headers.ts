/**
 * Headers of the portal's HTML shell. The shell is the page that registers WebMCP tools, so:
 * - `Permissions-Policy: tools=(self)` keeps the WebMCP `tools` feature to this origin only;
 * - `Origin-Agent-Cluster: ?1` keeps `document.domain` off (registration refuses with
 *   `SecurityError` when it is enabled);
 * - the CSP allows only this origin's scripts and styles (Lit uses constructable stylesheets, which
 *   CSP does not gate) and forces Trusted Types, so no string ever becomes HTML or script;
 * - `no-cache`: the shell names hashed assets, so it must be revalidated on every load.
 */
export const SHELL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types lit-html',
].join('; ');

export const SHELL_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy': SHELL_CSP,
  'permissions-policy': 'tools=(self)',
  'origin-agent-cluster': '?1',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/** Paths the shell never answers: APIs keep their JSON 404s. */
const NOT_SHELL = [
  /^\/api(\/|$)/,
  /^\/mcp(\/|$)/,
  /^\/(healthz|readyz|metrics)$/,
  /^\/assets(\/|$)/,
  /^\/kit(\/|$)/,
];

export function isShellPath(path: string): boolean {
  return !NOT_SHELL.some((pattern) => pattern.test(path));
}

/** Only navigations get the shell; a script asking for JSON gets the API's 404 instead. */
export function acceptsHtml(accept: string | undefined): boolean {
  return typeof accept === 'string' && /\btext\/html\b/.test(accept);
}
