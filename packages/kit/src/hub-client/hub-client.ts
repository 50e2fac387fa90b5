import {
  CodedError,
  HUB_API_PREFIX,
  HUB_ROUTES,
  type HubReplies,
  type HubRouteName,
  hubPath,
  LocalError,
  type VisitorSessionView,
  type WireError,
} from '@diosc/protocol';
import type { KitStorage } from './storage.js';

export interface HubClientOptions {
  hubUrl: string;
  publishableKey: string;
  identity?: string;
  fetch: typeof fetch;
  /** Where the visitor session is kept between pages (`localStorage`). */
  storage: KitStorage;
}

/** The visitor's side of `/api/hub`: one session, bearer-authenticated requests, decoded refusals. */
export interface HubClient {
  /** `<hubUrl>/api/hub`: the `HUB_API_PREFIX` on the hub's origin. */
  readonly base: string;
  /** The visitor session, opened once (or reused from storage until it expires). */
  session(): Promise<VisitorSessionView>;
  /**
   * One JSON route of the hub's table (`HUB_ROUTES`); a refusal rejects with the hub's `CodedError`,
   * no answer with a `transport_failed` `LocalError`.
   */
  call<N extends keyof HubReplies>(name: N, target?: { id?: string; body?: unknown }): Promise<HubReplies[N]>;
  /** A raw authenticated request (event streams, uploads, downloads); the response is not decoded. */
  raw(pathOrUrl: string, init?: RequestInit): Promise<Response>;
  /** Drops the stored session (it expired, or the kit is destroyed). */
  forget(): void;
}

const SESSION_CODES = new Set(['unauthenticated', 'session_expired']);

/** A short fingerprint of the identity, so a different signed-in user never reuses a session. */
function fingerprint(value: string | undefined): string {
  let hash = 0x811c9dc5;
  for (const char of value ?? '') hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash.toString(36);
}

export async function decodeRefusal(response: Response): Promise<CodedError | LocalError> {
  try {
    const body = (await response.json()) as { error?: WireError };
    if (body.error?.code)
      return new CodedError(body.error.code, body.error.message, { details: body.error.details });
  } catch {
    // Not a hub refusal (a proxy page, an empty body): described by its status below.
  }
  return new LocalError('transport_failed', `The hub answered ${response.status} ${response.statusText}.`);
}

/**
 * Where a request goes: `/api/…` paths on the hub's origin, other paths under `/api/hub`. The bearer
 * token only ever goes to the hub: an absolute URL on another origin is refused, not followed.
 */
function hubUrlFor(root: string, base: string, pathOrUrl: string): string {
  if (pathOrUrl.startsWith('/api/')) return `${root}${pathOrUrl}`;
  if (pathOrUrl.startsWith('/')) return `${base}${pathOrUrl}`;
  const url = new URL(pathOrUrl);
  if (url.origin !== new URL(root).origin) {
    throw new CodedError('forbidden_origin', `Refusing to send the visitor session to ${url.origin}.`);
  }
  return url.href;
}

/** A route's path with its id, for callers that hold the name as a value rather than a literal. */
function routePath(name: HubRouteName, id?: string): string {
  return (hubPath as (name: HubRouteName, id?: string) => string)(name, id);
}

export function createHubClient(options: HubClientOptions): HubClient {
  const root = options.hubUrl.replace(/\/+$/, '');
  const base = `${root}${HUB_API_PREFIX}`;
  const key = `session:${root}|${options.publishableKey}|${fingerprint(options.identity)}`;
  let current: Promise<VisitorSessionView> | null = null;

  const send = async (url: string, init: RequestInit): Promise<Response> => {
    try {
      return await options.fetch(url, { ...init, credentials: 'omit', cache: 'no-store' });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new LocalError('transport_failed', 'The hub could not be reached.', { cause: error });
    }
  };

  const open = async (): Promise<VisitorSessionView> => {
    const stored = options.storage.get<VisitorSessionView>(key);
    if (stored && Date.parse(stored.expiresAt) > Date.now() + 5_000) return stored;
    const body = {
      publishableKey: options.publishableKey,
      ...(options.identity ? { identity: options.identity } : {}),
    };
    const response = await send(`${base}${hubPath('openSession')}`, {
      method: HUB_ROUTES.openSession.method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw await decodeRefusal(response);
    const view = (await response.json()) as VisitorSessionView;
    options.storage.set(key, view);
    return view;
  };

  const session = () => {
    current ??= open().catch((error: unknown) => {
      current = null;
      throw error;
    });
    return current;
  };

  const forget = () => {
    current = null;
    options.storage.remove(key);
  };

  const raw = async (pathOrUrl: string, init: RequestInit = {}, retried = false): Promise<Response> => {
    const { token } = await session();
    const url = hubUrlFor(root, base, pathOrUrl);
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    const response = await send(url, { ...init, headers });
    if (response.status === 401 && !retried) {
      const refusal = await decodeRefusal(response.clone());
      if (SESSION_CODES.has(refusal.code)) {
        forget();
        return raw(pathOrUrl, init, true);
      }
    }
    return response;
  };

  return {
    base,
    session,
    raw,
    forget,
    async call<N extends keyof HubReplies>(name: N, { id, body }: { id?: string; body?: unknown } = {}) {
      const headers = new Headers();
      if (body !== undefined) headers.set('content-type', 'application/json');
      const response = await raw(routePath(name, id), {
        method: HUB_ROUTES[name].method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw await decodeRefusal(response);
      return (await response.json()) as HubReplies[N];
    },
  };
}
