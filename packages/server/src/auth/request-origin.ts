import type { IncomingHttpHeaders } from 'node:http';

/**
 * The origin a browser says a request came from: the `Origin` header, or — when a browser omits it —
 * the origin of `Referer`. Undefined when neither is present or parseable.
 */
export function requestOrigin(headers: IncomingHttpHeaders): string | undefined {
  const origin = single(headers.origin);
  if (origin !== undefined) return origin;
  const referer = single(headers.referer);
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/** Scheme, host and port must all be equal; `https://a` and `https://a:443` are one origin. */
export function isExactOrigin(candidate: string, publicOrigin: string): boolean {
  try {
    return candidate === new URL(publicOrigin).origin;
  } catch {
    return false;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined;
  return value === undefined || value === '' ? undefined : value;
}
