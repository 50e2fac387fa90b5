import { DIALECTS } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { head, rawRequest } from './raw-client.js';
import { bodyRoutes, mismatch, type RawSuite, startRawSuite } from './raw-suite.js';

/**
 * Raw, malformed requests on every route, sent as bytes over node:net: a foreign or missing Host,
 * oversized headers and URLs, long or badly escaped path segments, malformed HTTP — each answered
 * in the documented shape, the server still answering, no row changed.
 */
describe.each(DIALECTS)(
  'raw HTTP requests on every route (the hub’s, the owner API’s, /mcp, the shell) ($name)',
  (dialect) => {
    let raw: RawSuite;
    beforeAll(async () => {
      raw = await startRawSuite(dialect);
    });
    afterAll(() => raw?.server.close());

    it('covers the routes of every entry', () => {
      const paths = new Set(raw.routes.map((route) => route.path));
      for (const path of [
        '/mcp',
        '/healthz',
        '/api/owner/session',
        '/api/hub/sessions',
        '/api/hub/conversations',
      ])
        expect(paths).toContain(path);
      expect(raw.routes.filter(bodyRoutes).length).toBeGreaterThan(12);
    });

    it('refuses a foreign or missing Host on every route (421 unknown_host)', async () => {
      for (const host of ['evil.example', 'evil.example:80', undefined, '127.0.0.1@evil.example']) {
        const failures = await raw.sweep(
          () => true,
          (route) => ({
            request: raw
              .json(route, '{}', host === undefined ? {} : { host })
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
      const headers = await raw.sweep(
        () => true,
        (route) => ({ request: head(route.method, route.path, { 'x-long': long }, raw.port) }),
        () => ({ code: 'headers_too_large' }),
        true,
      );
      expect(headers).toEqual([]);
      const urls = await raw.sweep(
        () => true,
        (route) => ({ request: head(route.method, `${route.path}?q=${long}`, {}, raw.port) }),
        () => ({ code: 'headers_too_large' }),
        true,
      );
      expect(urls).toEqual([]);
      const segment = await raw.sweep(
        (route) => route.parameterized,
        (route) => ({
          request: head(route.method, route.path.replace('/x', `/${'p'.repeat(200)}`), {}, raw.port),
        }),
        // A GET falls through to the portal shell's catch-all, which has no parameter to overflow.
        (route) => ({ code: ['GET', 'HEAD'].includes(route.method) ? 'not_found' : 'uri_too_long' }),
      );
      expect(segment).toEqual([]);
      const escapes = await raw.sweep(
        (route) => route.parameterized,
        (route) => ({ request: head(route.method, route.path.replace('/x', '/%zz'), {}, raw.port) }),
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
        const answer = await rawRequest(raw.port, request.replace('127.0.0.1:0', `127.0.0.1:${raw.port}`));
        expect(mismatch(answer, expected, 'GET'), request).toBeNull();
      }
    });

    it('is still answering, and nothing any of these requests sent changed a row', async () => {
      expect((await rawRequest(raw.port, head('GET', '/healthz', {}, raw.port))).status).toBe(200);
      await raw.unchanged();
    });
  },
);
