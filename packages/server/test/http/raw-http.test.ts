import { ERROR_CODES, type ErrorCode } from '@diosc/protocol';
import { startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_DEPTH_MAX } from '../../src/http/json-body.js';
import { ALL_NOTES, createConnection } from '../mcp/support.js';
import { head, type RawAnswer, rawRequest, withBody } from './raw-client.js';
import { type RouteEntry, routesOf } from './routes.js';
import { snapshot } from './snapshot.js';

/** What one malformed request must get back: a code of ours, or a JSON-RPC error on `/mcp`. */
type Expected = { code: ErrorCode } | { rpc: number } | { status: number };

const REQUEST_TIMEOUT_MS = 600;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

let server: TestServer;
let port: number;
let token: string;
let routes: RouteEntry[];
let before: Record<string, unknown[]>;

beforeAll(async () => {
  server = await startTestServer({
    app: {
      http: { requestTimeoutMs: REQUEST_TIMEOUT_MS, headersTimeoutMs: 500, timeoutCheckIntervalMs: 100 },
    },
  });
  port = Number(new URL(server.url).port);
  ({ token } = await createConnection(server, [ALL_NOTES]));
  routes = routesOf(server.app);
  before = await snapshot(server.store);
});

afterAll(async () => {
  await server?.close();
});

const isMcp = (route: RouteEntry) => route.path === '/mcp';
/** `/mcp` authenticates before it reads a body; the token lets the body checks be reached. */
const credentials = (route: RouteEntry) =>
  isMcp(route) ? { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' } : {};
/** On `/mcp`, only POST reads a body; every other method is 405 whatever comes with it. */
const mcpNotAllowed = (route: RouteEntry) => isMcp(route) && route.method !== 'POST';

/** The documented shape and headers; a description of what is wrong, or null. */
function mismatch(answer: RawAnswer, expected: Expected, method: string): string | null {
  if (answer.status >= 500 && !('code' in expected && ERROR_CODES[expected.code].status >= 500))
    return `answered ${answer.status}`;
  if (answer.headers['cache-control'] !== 'no-store')
    return `cache-control ${answer.headers['cache-control']}`;
  if ('status' in expected) return answer.status === expected.status ? null : `status ${answer.status}`;
  if (!answer.headers['content-type']?.startsWith('application/json')) return 'not JSON';
  const status = 'code' in expected ? ERROR_CODES[expected.code].status : answer.status;
  if (answer.status !== status) return `status ${answer.status}, wanted ${status}`;
  if (method === 'HEAD') return answer.body.length === 0 ? null : 'a HEAD answer with a body';
  const body = answer.json as { error?: { code?: unknown; message?: unknown; retryable?: unknown } };
  if ('rpc' in expected) {
    const rpc = answer.json as { jsonrpc?: string; id?: unknown; error?: { code?: number } };
    return rpc.jsonrpc === '2.0' && rpc.id === null && rpc.error?.code === expected.rpc
      ? null
      : `body ${answer.body.toString().slice(0, 200)}`;
  }
  const keys = Object.keys(body?.error ?? {}).filter((key) => !['retryAfterMs', 'details'].includes(key));
  return body?.error?.code === expected.code &&
    typeof body.error.message === 'string' &&
    body.error.retryable === ERROR_CODES[expected.code].retryable &&
    keys.sort().join() === 'code,message,retryable'
    ? null
    : `body ${answer.body.toString().slice(0, 200)}`;
}

/** Sends one request per route, a few at a time, and lists every answer that is not as expected. */
async function sweep(
  select: (route: RouteEntry) => boolean,
  build: (route: RouteEntry) => { request: Buffer | string; parts?: (Buffer | string)[]; pauseMs?: number },
  expected: (route: RouteEntry) => Expected,
  /** The server could not read the request (so not its method either): a HEAD gets a body too. */
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
}

const bodyRoutes = (route: RouteEntry) => BODY_METHODS.has(route.method);
const jsonRefusal = (route: RouteEntry): Expected =>
  mcpNotAllowed(route) ? { rpc: -32000 } : isMcp(route) ? { rpc: -32700 } : { code: 'invalid_input' };
const refusedAs = (code: ErrorCode) => (route: RouteEntry) =>
  mcpNotAllowed(route) ? ({ rpc: -32000 } as Expected) : { code };
const json = (route: RouteEntry, body: string | Buffer, headers: Record<string, string> = {}) =>
  withBody(
    route.method,
    route.path,
    { 'content-type': 'application/json', ...credentials(route), ...headers },
    body,
    port,
  );

describe('raw HTTP on every route (the hub’s, the owner API’s, /mcp, the shell)', () => {
  it('covers the routes of every entry', () => {
    const paths = new Set(routes.map((route) => route.path));
    for (const path of [
      '/mcp',
      '/healthz',
      '/api/owner/session',
      '/api/hub/sessions',
      '/api/hub/conversations',
    ])
      expect(paths).toContain(path);
    expect(routes.filter(bodyRoutes).length).toBeGreaterThan(12);
  });

  it(`refuses bodies nested deeper than ${BODY_DEPTH_MAX} levels (5,000 here) with a 4xx, before parsing`, async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const justDeep = `${'['.repeat(BODY_DEPTH_MAX + 1)}${']'.repeat(BODY_DEPTH_MAX + 1)}`;
    expect(await sweep(bodyRoutes, (route) => ({ request: json(route, deep) }), jsonRefusal)).toEqual([]);
    expect(await sweep(bodyRoutes, (route) => ({ request: json(route, justDeep) }), jsonRefusal)).toEqual([]);
    // Brackets inside strings are text, not nesting.
    const inString = JSON.stringify({ text: '['.repeat(5000) });
    const answer = await rawRequest(
      port,
      withBody(
        'POST',
        '/api/owner/session',
        { 'content-type': 'application/json', origin: server.url },
        inString,
        port,
      ),
    );
    expect((answer.json as { error: { message: string } }).error.message).toBe('Unknown field "text".');
  });

  it('refuses malformed JSON, invalid UTF-8 and a byte-order mark the same way on every entry', async () => {
    for (const body of [
      '{"a":',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{}')]),
    ]) {
      expect(await sweep(bodyRoutes, (route) => ({ request: json(route, body) }), jsonRefusal)).toEqual([]);
    }
  });

  it('refuses other media types, a body without one, and charsets other than UTF-8 (415)', async () => {
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': undefined },
      { 'content-type': 'application/json; charset=latin1' },
      { 'content-type': 'application/x-www-form-urlencoded' },
    ]) {
      const failures = await sweep(
        bodyRoutes,
        (route) => ({
          request: withBody(route.method, route.path, { ...credentials(route), ...headers }, '{}', port),
        }),
        refusedAs('unsupported_media_type'),
      );
      expect(failures, JSON.stringify(headers)).toEqual([]);
    }
  });

  it('refuses oversized bodies, declared or streamed in chunks (413)', async () => {
    const declared = await sweep(
      bodyRoutes,
      (route) => ({
        request: head(
          route.method,
          route.path,
          { 'content-type': 'application/json', 'content-length': '5000000', ...credentials(route) },
          port,
        ),
      }),
      refusedAs('too_large'),
    );
    expect(declared).toEqual([]);
    const chunk = `${(2 * 1024 * 1024).toString(16)}\r\n${'a'.repeat(2 * 1024 * 1024)}\r\n0\r\n\r\n`;
    const streamed = await sweep(
      bodyRoutes,
      (route) => ({
        request:
          head(
            route.method,
            route.path,
            { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...credentials(route) },
            port,
          ) + chunk,
      }),
      refusedAs('too_large'),
    );
    expect(streamed).toEqual([]);
  });

  it('closes a stalled body and a slow one with 408 request_timeout', async () => {
    const stalled = await sweep(
      bodyRoutes,
      (route) => ({
        request: Buffer.concat([
          Buffer.from(
            head(
              route.method,
              route.path,
              { 'content-type': 'application/json', 'content-length': '1000', ...credentials(route) },
              port,
            ),
          ),
          Buffer.from('{"a":"'),
        ]),
      }),
      (route) => (mcpNotAllowed(route) ? { rpc: -32000 } : { code: 'request_timeout' }),
    );
    expect(stalled).toEqual([]);
    const slow = await rawRequest(port, '', {
      parts: [
        head(
          'POST',
          '/api/owner/session',
          { 'content-type': 'application/json', 'content-length': '1000' },
          port,
        ),
        ...'{"email":"'.split(''),
      ],
      pauseMs: 150,
    });
    expect(mismatch(slow, { code: 'request_timeout' }, 'POST')).toBeNull();
    expect(slow.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000);
    // Headers that never finish are cut off too.
    const slowHead = await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1');
    expect(mismatch(slowHead, { code: 'request_timeout' }, 'GET')).toBeNull();
  });

  it('refuses a body on GET, HEAD and DELETE rather than dropping it (405 on /mcp)', async () => {
    const failures = await sweep(
      (route) => ['GET', 'HEAD', 'DELETE'].includes(route.method),
      (route) => ({ request: json(route, '{"all":true}') }),
      (route) => (isMcp(route) ? { rpc: -32000 } : { code: 'invalid_input' }),
    );
    expect(failures).toEqual([]);
    // DELETE /mcp naming JSON but sending nothing is the documented 405, not a parse error.
    const bare = await rawRequest(
      port,
      head('DELETE', '/mcp', { 'content-type': 'application/json', authorization: `Bearer ${token}` }, port),
    );
    expect(mismatch(bare, { rpc: -32000 }, 'DELETE')).toBeNull();
    expect(bare.status).toBe(405);
    expect(bare.headers.allow).toBe('POST');
  });

  it('refuses a foreign or missing Host on every route (421 unknown_host)', async () => {
    for (const host of ['evil.example', 'evil.example:80', undefined, '127.0.0.1@evil.example']) {
      const failures = await sweep(
        () => true,
        (route) => ({
          request: json(route, '{}', host === undefined ? {} : { host })
            .toString('latin1')
            .replace(host === undefined ? /host: [^\r]*\r\n/ : /^$/, ''),
        }),
        () => ({ code: 'unknown_host' }),
      );
      expect(failures, String(host)).toEqual([]);
    }
  });

  it('answers long headers and long URLs with 431, long path segments with 414, bad escapes with 400', async () => {
    const long = 'a'.repeat(20_000);
    const headers = await sweep(
      () => true,
      (route) => ({ request: head(route.method, route.path, { 'x-long': long }, port) }),
      () => ({ code: 'headers_too_large' }),
      true,
    );
    expect(headers).toEqual([]);
    const urls = await sweep(
      () => true,
      (route) => ({ request: head(route.method, `${route.path}?q=${long}`, {}, port) }),
      () => ({ code: 'headers_too_large' }),
      true,
    );
    expect(urls).toEqual([]);
    const segment = await sweep(
      (route) => route.parameterized,
      (route) => ({ request: head(route.method, route.path.replace('/x', `/${'p'.repeat(200)}`), {}, port) }),
      // A GET falls through to the portal shell's catch-all, which has no parameter to overflow.
      (route) => ({ code: ['GET', 'HEAD'].includes(route.method) ? 'not_found' : 'uri_too_long' }),
    );
    expect(segment).toEqual([]);
    const escapes = await sweep(
      (route) => route.parameterized,
      (route) => ({ request: head(route.method, route.path.replace('/x', '/%zz'), {}, port) }),
      () => ({ code: 'invalid_input' }),
    );
    expect(escapes).toEqual([]);
  });

  it('answers malformed HTTP, unknown paths and unknown methods in the documented shape', async () => {
    for (const [request, expected] of [
      ['GET /healthz HTTP/1.1 junk\r\nHost: 127.0.0.1\r\n\r\n', { code: 'invalid_input' }],
      ['FOO /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', { code: 'invalid_input' }],
      [
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
        { code: 'invalid_input' },
      ],
      ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n', { code: 'invalid_input' }],
      [head('GET', '/api/owner/nope', { accept: 'application/json' }, 0), { code: 'not_found' }],
      [head('PROPFIND', '/api/owner/session', {}, 0), { code: 'not_found' }],
      [head('POST', '/api/hub/nope', {}, 0), { code: 'not_found' }],
    ] as const) {
      const answer = await rawRequest(port, request.replace('127.0.0.1:0', `127.0.0.1:${port}`));
      expect(mismatch(answer, expected, 'GET'), request).toBeNull();
    }
  });

  it('is still answering, and nothing any of these requests sent changed a row', async () => {
    const health = await rawRequest(port, head('GET', '/healthz', {}, port));
    expect(health.status).toBe(200);
    expect(await snapshot(server.store)).toEqual(before);
  });
});
