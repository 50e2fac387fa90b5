import { DioscError, isErrorCode, LocalError, type WireError } from '@diosc/protocol';

export interface OwnerRequestOptions {
  /** Origin + path prefix of the server; '' (default) means this page's origin. */
  baseUrl?: string;
  /** The session's CSRF token, read at request time (it changes with every sign-in). */
  csrfToken: () => string | null | undefined;
  fetch?: typeof globalThis.fetch;
  /** Told about every refusal before it is thrown (the portal reacts to 401s here). */
  onRefusal?: (error: DioscError, status: number, path: string) => void;
}

export type OwnerRequest = <T>(
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
) => Promise<T>;

/**
 * Thrown when `fetch` itself failed (no HTTP answer): local error `transport_failed`. Callers decide
 * what that means: before a write was sent it is a plain failure; after, the outcome is uncertain.
 * Check with `TransportFailure.isInstance` (branded: it holds across bundled copies).
 */
export class TransportFailure extends LocalError {
  constructor(cause: unknown) {
    super('transport_failed', undefined, { cause });
    this.name = 'TransportFailure';
  }

  static override isInstance(value: unknown): value is TransportFailure {
    return LocalError.hasCode(value, 'transport_failed');
  }
}

function wireError(body: unknown): WireError | null {
  const error = (body as { error?: Partial<WireError> } | null)?.error;
  if (!error || !isErrorCode(error.code) || typeof error.message !== 'string') return null;
  return error as WireError;
}

/**
 * One request to the owner API: cookies same-origin only, `no-store` (private data never lands in
 * an HTTP cache), `X-CSRF-Token` on every mutation. Refusals become `DioscError`s with the server's
 * code; a non-JSON answer never leaks its text. Shared by the adapter and the portal.
 */
export function createOwnerRequest(options: OwnerRequestOptions): OwnerRequest {
  const base = `${options.baseUrl ?? ''}/api/owner`;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  return async function request<T>(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<T> {
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
    const error = wire
      ? DioscError.fromWire(wire)
      : new DioscError('internal', `The server answered ${response.status} without a usable JSON body.`);
    options.onRefusal?.(error, response.status, path);
    throw error;
  };
}
