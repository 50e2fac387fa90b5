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
export declare function call(baseUrl: string, path: string, session: Pick<OwnerSession, 'cookie' | 'csrfToken'> | null, options?: Call): Promise<Response>;
/** Calls and parses JSON, returning status and body together. */
export declare function callJson<T = Record<string, unknown>>(baseUrl: string, path: string, session: Pick<OwnerSession, 'cookie' | 'csrfToken'> | null, options?: Call): Promise<{
    status: number;
    body: T;
    headers: Headers;
}>;
export declare function signIn(baseUrl: string, password?: string, email?: string): Promise<OwnerSession>;
