import { DioscError, isErrorCode, type WireError } from '@diosc/protocol';
import type { OwnerBrowserApi } from './owner-api-types.js';

export interface OwnerBrowserApiOptions {
  /** Origin + path prefix of the server; '' (default) means this page's origin. */
  baseUrl?: string;
  /** The session's CSRF token, read at request time (it changes with every sign-in). */
  csrfToken: () => string | null | undefined;
  fetch?: typeof globalThis.fetch;
}

/**
 * Thrown when `fetch` itself failed (no HTTP answer). Callers decide what that means: before a write
 * was sent it is a plain failure; after, the outcome is uncertain.
 */
export class TransportFailure extends Error {
  constructor(cause: unknown) {
    super('The browser could not reach the server.', { cause });
    this.name = 'TransportFailure';
  }
}

function wireError(body: unknown): WireError | null {
  const error = (body as { error?: Partial<WireError> } | null)?.error;
  if (!error || !isErrorCode(error.code) || typeof error.message !== 'string') return null;
  return error as WireError;
}

/**
 * The owner API over `fetch`: cookies same-origin only, `no-store`, `X-CSRF-Token` on every mutation.
 * Refusals become `DioscError`s with the server's code; a non-JSON answer never leaks its text.
 *
 * @example
 * const api = createOwnerBrowserApi({ csrfToken: () => session.csrfToken });
 * const { tools } = await api.descriptors();
 */
export function createOwnerBrowserApi(options: OwnerBrowserApiOptions): OwnerBrowserApi {
  const base = `${options.baseUrl ?? ''}/api/owner`;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') headers['x-csrf-token'] = options.csrfToken() ?? '';
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        cache: 'no-store',
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw new TransportFailure(error);
    }
    if (response.status === 204) return undefined as T;
    const parsed: unknown = await response.json().catch(() => null);
    if (response.ok && parsed !== null) return parsed as T;
    const wire = wireError(parsed);
    if (wire) throw DioscError.fromWire(wire);
    throw new DioscError('internal', `The server answered ${response.status} without a usable JSON body.`);
  }

  return {
    session: (signal) => request('GET', '/session', undefined, signal),
    browserAccess: (signal) => request('GET', '/browser-access', undefined, signal),
    enableAccess: (selection, signal) => request('PUT', '/browser-access', { selection }, signal),
    disableAccess: (signal) => request('DELETE', '/browser-access', undefined, signal),
    descriptors: (signal) => request('GET', '/browser-access/descriptors', undefined, signal),
    dispatch: (call, signal) => request('POST', '/browser-access/dispatch', call, signal),
    prepare: (call, signal) => request('POST', '/browser-access/prepare', call, signal),
    acknowledge: (receiptId, digest, signal) =>
      request(
        'POST',
        `/browser-access/receipts/${encodeURIComponent(receiptId)}/acknowledge`,
        { digest },
        signal,
      ),
    execute: (call, signal) => request('POST', '/browser-access/execute', call, signal),
  };
}
