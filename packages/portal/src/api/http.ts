import { DioscError } from '@diosc/protocol';
import { createOwnerRequest, TransportFailure } from '@diosc/webmcp';

export interface HttpOptions {
  /** The session's CSRF token, read at request time (it changes with every sign-in). */
  csrfToken: () => string | null;
  /** Told about every 401 outside the session endpoint, so the session state can react. */
  onUnauthenticated: (error: DioscError) => void;
}

export type Http = <T>(method: string, path: string, body?: unknown, signal?: AbortSignal) => Promise<T>;

/**
 * The owner API for the portal's own pages: the adapter's request (same-origin cookies, `no-store`
 * — the portal has no service worker — CSRF header on mutations, refusals as `DioscError`), plus a
 * reaction to 401s so the session state follows the server.
 */
export function createHttp(options: HttpOptions): Http {
  const request = createOwnerRequest({
    csrfToken: options.csrfToken,
    onRefusal(error, status, path) {
      if (status === 401 && path !== '/session' && path !== '/session/status')
        options.onUnauthenticated(error);
    },
  });
  return async function http<T>(method: string, path: string, body?: unknown, signal?: AbortSignal) {
    try {
      return await request<T>(method, path, body, signal);
    } catch (error) {
      if (TransportFailure.isInstance(error)) {
        throw new DioscError('internal', 'The server could not be reached.', { cause: error });
      }
      throw error;
    }
  };
}
