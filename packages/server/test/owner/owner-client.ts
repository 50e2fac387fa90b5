import { OWNER_PASSWORD } from '@diosc/server/testing';

/** A signed-in owner as a browser would hold it: the cookie and the CSRF token. */
export interface OwnerSession {
  /** The raw session ID from Set-Cookie. */
  sessionId: string;
  cookie: string;
  csrfToken: string;
  sessionGeneration: number;
  accountId: string;
}

export interface Call {
  method?: string;
  body?: unknown;
  /** Headers replacing (or, when undefined, removing) the defaults: origin, cookie, csrf, type. */
  headers?: Record<string, string | undefined>;
}

/** Sends a request to the owner API the way the portal does, with explicit headers. */
export async function call(
  baseUrl: string,
  path: string,
  session: Pick<OwnerSession, 'cookie' | 'csrfToken'> | null,
  options: Call = {},
): Promise<Response> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const defaults: Record<string, string | undefined> = {
    origin: method === 'GET' ? undefined : baseUrl,
    cookie: session?.cookie,
    'x-csrf-token': method === 'GET' ? undefined : session?.csrfToken,
    'content-type': options.body === undefined ? undefined : 'application/json',
  };
  const merged = { ...defaults, ...options.headers };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(merged)) if (value !== undefined) headers[name] = value;
  return fetch(`${baseUrl}/api/owner${path}`, {
    method,
    headers,
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  });
}

/** Calls and parses JSON, returning status and body together. */
export async function callJson<T = Record<string, unknown>>(
  baseUrl: string,
  path: string,
  session: Pick<OwnerSession, 'cookie' | 'csrfToken'> | null,
  options: Call = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await call(baseUrl, path, session, options);
  const text = await response.text();
  return {
    status: response.status,
    body: (text === '' ? undefined : JSON.parse(text)) as T,
    headers: response.headers,
  };
}

export async function signIn(
  baseUrl: string,
  password = OWNER_PASSWORD,
  email = 'owner@localhost',
): Promise<OwnerSession> {
  const response = await call(baseUrl, '/session', null, {
    body: { email, password },
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const setCookie = response.headers.get('set-cookie') ?? '';
  const match = /diosc_session=([^;]+)/.exec(setCookie);
  if (!match) throw new Error(`no session cookie in ${setCookie}`);
  const body = (await response.json()) as {
    csrfToken: string;
    sessionGeneration: number;
    account: { id: string };
  };
  return {
    sessionId: match[1]!,
    cookie: `diosc_session=${match[1]}`,
    csrfToken: body.csrfToken,
    sessionGeneration: body.sessionGeneration,
    accountId: body.account.id,
  };
}
