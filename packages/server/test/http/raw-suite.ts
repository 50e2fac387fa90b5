import { ERROR_CODES, type ErrorCode } from '@diosc/protocol';
import { startTestServer, type TestDialect, type TestServer } from '@diosc/server/testing';
import { expect } from 'vitest';
import { ALL_NOTES, createConnection } from '../mcp/support.js';
import { type RawAnswer, rawRequest, withBody } from './raw-client.js';
import { type RouteEntry, routesOf } from './routes.js';
import { snapshot } from './snapshot.js';

/** What one malformed request must get back: a code of ours, or a JSON-RPC error on `/mcp`. */
export type Expected = { code: ErrorCode } | { rpc: number } | { status: number };

/**
 * The server's request and header timeouts. `long` for every sweep about what a request says (a
 * loaded two-core machine must not turn a 413 into a 408); `short` for the suite about timeouts
 * themselves, so a stalled request is cut off quickly.
 */
const TIMEOUTS = {
  long: { requestTimeoutMs: 60_000, headersTimeoutMs: 60_000, timeoutCheckIntervalMs: 1_000 },
  short: { requestTimeoutMs: 600, headersTimeoutMs: 500, timeoutCheckIntervalMs: 100 },
} as const;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export const isMcp = (route: RouteEntry) => route.path === '/mcp';
/** On `/mcp`, only POST reads a body; every other method is 405 whatever comes with it. */
export const mcpNotAllowed = (route: RouteEntry) => isMcp(route) && route.method !== 'POST';
export const bodyRoutes = (route: RouteEntry) => BODY_METHODS.has(route.method);
export const jsonRefusal = (route: RouteEntry): Expected =>
  mcpNotAllowed(route) ? { rpc: -32000 } : isMcp(route) ? { rpc: -32700 } : { code: 'invalid_input' };
export const refusedAs = (code: ErrorCode) => (route: RouteEntry) =>
  mcpNotAllowed(route) ? ({ rpc: -32000 } as Expected) : { code };

/** The documented shape and headers; a description of what is wrong, or null. */
export function mismatch(answer: RawAnswer, expected: Expected, method: string): string | null {
  if (answer.status >= 500 && !('code' in expected && ERROR_CODES[expected.code].status >= 500))
    return `answered ${answer.status}`;
  if (answer.headers['cache-control'] !== 'no-store')
    return `cache-control ${answer.headers['cache-control']}`;
  if ('status' in expected) return answer.status === expected.status ? null : `status ${answer.status}`;
  if (!answer.headers['content-type']?.startsWith('application/json')) return 'not JSON';
  const status = 'code' in expected ? ERROR_CODES[expected.code].status : answer.status;
  if (answer.status !== status) return `status ${answer.status}, wanted ${status}`;
  if (method === 'HEAD') return answer.body.length === 0 ? null : 'a HEAD answer with a body';
  if ('rpc' in expected) {
    const rpc = answer.json as { jsonrpc?: string; id?: unknown; error?: { code?: number } };
    return rpc.jsonrpc === '2.0' && rpc.id === null && rpc.error?.code === expected.rpc
      ? null
      : `body ${answer.body.toString().slice(0, 200)}`;
  }
  const body = answer.json as { error?: { code?: unknown; message?: unknown; retryable?: unknown } };
  const keys = Object.keys(body?.error ?? {}).filter((key) => !['retryAfterMs', 'details'].includes(key));
  return body?.error?.code === expected.code &&
    typeof body.error.message === 'string' &&
    body.error.retryable === ERROR_CODES[expected.code].retryable &&
    keys.sort().join() === 'code,message,retryable'
    ? null
    : `body ${answer.body.toString().slice(0, 200)}`;
}

export interface RawRequestSpec {
  request: Buffer | string;
  parts?: (Buffer | string)[];
  pauseMs?: number;
}

/**
 * The real server with the given timeouts, a connection token (`/mcp` authenticates before it reads
 * a body, so the body checks can be reached), every route of Fastify's tree, and the rows as they
 * were — for suites that throw raw HTTP at all of it and then check nothing changed.
 */
export async function startRawSuite(dialect: TestDialect, timeouts: keyof typeof TIMEOUTS = 'long') {
  const server: TestServer = await startTestServer({ dialect, app: { http: TIMEOUTS[timeouts] } });
  const port = Number(new URL(server.url).port);
  const { token } = await createConnection(server, [ALL_NOTES]);
  const routes = routesOf(server.app);
  const before = await snapshot(server.store);
  const credentials = (route: RouteEntry) =>
    isMcp(route) ? { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' } : {};

  return {
    server,
    port,
    token,
    routes,
    credentials,
    /** The rows are what they were before the suite sent anything. */
    unchanged: async () => expect(await snapshot(server.store)).toEqual(before),
    /** A JSON request with the route's credentials and `body` as given (bytes are sent as they are). */
    json: (route: RouteEntry, body: string | Buffer, headers: Record<string, string> = {}) =>
      withBody(
        route.method,
        route.path,
        { 'content-type': 'application/json', ...credentials(route), ...headers },
        body,
        port,
      ),
    /**
     * Sends one request per selected route, a few at a time, and lists every answer that is not as
     * expected. `unread`: the server cannot read the request (nor its method), so a HEAD gets a body.
     */
    async sweep(
      select: (route: RouteEntry) => boolean,
      build: (route: RouteEntry) => RawRequestSpec,
      expected: (route: RouteEntry) => Expected,
      unread = false,
    ): Promise<string[]> {
      const chosen = routes.filter(select);
      expect(chosen.length).toBeGreaterThan(0);
      const failures: string[] = [];
      for (let at = 0; at < chosen.length; at += 8) {
        await Promise.all(
          chosen.slice(at, at + 8).map(async (route) => {
            const { request, parts, pauseMs } = build(route);
            try {
              const answer = await rawRequest(port, request, { parts, pauseMs });
              const wrong = mismatch(answer, expected(route), unread ? 'GET' : route.method);
              if (wrong) failures.push(`${route.method} ${route.path}: ${wrong}`);
            } catch (error) {
              failures.push(`${route.method} ${route.path}: ${(error as Error).message}`);
            }
          }),
        );
      }
      return failures;
    },
  };
}

export type RawSuite = Awaited<ReturnType<typeof startRawSuite>>;
