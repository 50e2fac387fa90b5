import { DioscError, isErrorCode, type WireError } from '@diosc/protocol';

export interface HttpOptions {
  /** The session's CSRF token, read at request time (it changes with every sign-in). */
  csrfToken: () => string | null;
  /** Told about every 401 outside the session endpoint, so the session state can react. */
  onUnauthenticated: (error: DioscError) => void;
}

export type Http = <T>(method: string, path: string, body?: unknown, signal?: AbortSignal) => Promise<T>;

function wireError(body: unknown): WireError | null {
  const error = (body as { error?: Partial<WireError> } | null)?.error;
  if (!error || !isErrorCode(error.code) || typeof error.message !== 'string') return null;
  return error as WireError;
}

/**
 * `fetch` for the owner API: same-origin cookies, never cached (`no-store` — private data must not
 * land in any HTTP cache; the portal has no service worker), the CSRF header on every mutation, and
 * refusals as `DioscError` with the server's stable code. A non-JSON answer never leaks its text.
 */
export function createHttp(options: HttpOptions): Http {
  return async function http<T>(method: string, path: string, body?: unknown, signal?: AbortSignal) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-csrf-token'] = options.csrfToken() ?? '';
    let response: Response;
    try {
      response = await fetch(`/api/owner${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        cache: 'no-store',
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new DioscError('internal', 'The server could not be reached.', { cause: error });
    }
    if (response.status === 204) return undefined as T;
    const parsed: unknown = await response.json().catch(() => null);
    if (response.ok && parsed !== null) return parsed as T;
    const wire = wireError(parsed);
    const error = wire
      ? DioscError.fromWire(wire)
      : new DioscError('internal', `The server answered ${response.status}.`);
    if (response.status === 401 && path !== '/session') options.onUnauthenticated(error);
    throw error;
  };
}
