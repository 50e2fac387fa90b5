/**
 * Splits a `navigate` path the model asked for into decoded segments, or says why it is unsafe.
 * The path must be a same-origin relative URL a browser cannot read any other way: an allowlist of
 * URL characters (so no whitespace, control, backslash or non-ASCII character that a URL parser
 * strips or rewrites), one leading `/`, and no segment that decodes — once or repeatedly — to a
 * `/`, `\`, `.`/`..`, a control character or a `scheme:`, and no `%XX` escapes that are not UTF-8
 * (`/products/%A0`): a router would decode them to U+FFFD, to Latin-1 or not at all, so which
 * page that is depends on the router.
 *
 * A query and a fragment are allowed (search pages, anchors); only the path part must match a
 * route. Their decoded text must not carry a second URL (`//host`, `scheme:` at the start of a
 * value, `\`), so an app's own `?next=` redirect cannot be steered off the site.
 */
export type SplitPath = { ok: true; segments: string[] } | { ok: false; reason: string };

export const MAX_NAVIGATION_PATH = 2048;

/** RFC 3986 path, query and fragment characters; `%` must start a `%XX` escape. */
const URL_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/?#]*$/;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const CONTROL_OR_SPACE = /[\s\p{Cc}\p{Cf}]/u;
const SCHEME_START = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const HEX_ESCAPE = /%[0-9A-Fa-f]{2}/;
const MAX_DECODES = 3;

export function splitNavigationPath(path: unknown): SplitPath {
  if (typeof path !== 'string') return refuse('is not a string');
  if (path.length === 0) return refuse('is empty');
  if (path.length > MAX_NAVIGATION_PATH) return refuse(`is longer than ${MAX_NAVIGATION_PATH} characters`);
  if (path.includes('\\')) return refuse('contains a backslash');
  if (CONTROL_OR_SPACE.test(path)) return refuse('contains whitespace or control characters');
  if (!URL_CHARACTERS.test(path)) return refuse('contains characters a URL path must percent-encode');
  if (BAD_ESCAPE.test(path)) return refuse('has a % that does not start a %XX escape');
  if (SCHEME_START.test(path)) return refuse('is a URL with a scheme; give a path that starts with /');
  if (!path.startsWith('/')) return refuse('is not a relative path starting with /');
  if (path.startsWith('//')) return refuse('starts with //, which would leave the site');

  const hash = path.indexOf('#');
  const fragment = hash === -1 ? '' : path.slice(hash + 1);
  const beforeHash = hash === -1 ? path : path.slice(0, hash);
  if (fragment.includes('#')) return refuse('has more than one #');
  const mark = beforeHash.indexOf('?');
  const query = mark === -1 ? '' : beforeHash.slice(mark + 1);
  const pathPart = mark === -1 ? beforeHash : beforeHash.slice(0, mark);

  const raw = pathPart === '/' ? [] : pathPart.slice(1).split('/');
  if (raw.length > 1 && raw.at(-1) === '') raw.pop(); // one trailing slash: `/blog/` is `/blog`
  const segments: string[] = [];
  for (const segment of raw) {
    if (segment === '') return refuse('has an empty segment (//)');
    const decoded = decodeFully(segment);
    if (decoded === 'too-deep') return refuse('is percent-encoded too many times');
    if (decoded === 'not-utf8') return refuse('has % escapes that are not UTF-8 text');
    for (const form of decoded) {
      if (form.includes('/') || form.includes('\\')) return refuse('encodes a / or \\ inside a segment');
      if (CONTROL_OR_SPACE.test(form)) return refuse('encodes whitespace or control characters');
      if (form === '.' || form === '..') return refuse('has a . or .. segment');
      if (SCHEME_START.test(form)) return refuse('has a segment that reads as a URL scheme');
    }
    segments.push(decoded.at(-1) ?? segment);
  }
  for (const part of [query, fragment]) {
    const decoded = decodeFully(part.replaceAll('+', ' '));
    if (decoded === 'too-deep') return refuse('has a query or fragment percent-encoded too many times');
    if (decoded === 'not-utf8')
      return refuse('has % escapes in its query or fragment that are not UTF-8 text');
    for (const form of decoded) {
      if (form.includes('\\') || form.includes('//'))
        return refuse('has a query or fragment that holds a URL');
      if (/[\p{Cc}\p{Cf}]/u.test(form)) return refuse('encodes control characters in its query or fragment');
      if (form.split(/[?&=#]/).some((value) => SCHEME_START.test(value.trim()))) {
        return refuse('has a query or fragment that holds a URL');
      }
    }
  }
  return { ok: true, segments };
}

/**
 * Every form a router might see: the raw text, then each successive percent-decoding until it
 * stops changing (or is no longer valid escaping). More than `MAX_DECODES` rounds is refused, and
 * so is a form whose `%XX` escapes are bytes that are not UTF-8.
 */
function decodeFully(text: string): string[] | 'too-deep' | 'not-utf8' {
  const forms = [text];
  let current = text;
  for (let round = 0; round < MAX_DECODES; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      // A lone `%` ("100%" after one decoding) is text with nothing further to decode; a `%XX`
      // that still fails is a byte sequence that is not UTF-8.
      return HEX_ESCAPE.test(current) ? 'not-utf8' : forms;
    }
    if (next === current) return forms;
    forms.push(next);
    current = next;
  }
  return HEX_ESCAPE.test(current) ? 'too-deep' : forms;
}

function refuse(reason: string): SplitPath {
  return { ok: false, reason };
}
