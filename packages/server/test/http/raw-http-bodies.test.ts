import { DIALECTS } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { BODY_DEPTH_MAX } from '../../src/http/json-body.js';
import { MAX_SITEMAP_XML_CHARS } from '../../src/hub/sitemap/sitemap-xml.js';
import { head, rawRequest, withBody } from './raw-client.js';
import {
  bodyRoutes,
  isMcp,
  jsonRefusal,
  mcpNotAllowed,
  mismatch,
  type RawSuite,
  refusedAs,
  startRawSuite,
} from './raw-suite.js';

/** Above the largest body any route takes (a sitemap.xml upload: 5 MiB of XML plus its JSON). */
const OVER_EVERY_LIMIT = MAX_SITEMAP_XML_CHARS + 2 * 1024 * 1024;

/**
 * Raw, malformed bodies on every route that takes one — and bodies where none belongs — sent as
 * bytes over node:net: a stable 4xx in the documented shape, the server still answering, no row
 * changed. (The requests themselves — Host, lengths, malformed HTTP — are raw-http-requests.test.ts.)
 */
describe.each(DIALECTS)(
  'raw HTTP bodies on every route (the hub’s, the owner API’s, /mcp, the shell) ($name)',
  (dialect) => {
    let raw: RawSuite;
    beforeAll(async () => {
      raw = await startRawSuite(dialect);
    });
    afterAll(() => raw?.server.close());

    it(`refuses bodies nested deeper than ${BODY_DEPTH_MAX} levels (5,000 here) with a 4xx, before parsing`, async () => {
      const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
      const justDeep = `${'['.repeat(BODY_DEPTH_MAX + 1)}${']'.repeat(BODY_DEPTH_MAX + 1)}`;
      expect(
        await raw.sweep(bodyRoutes, (route) => ({ request: raw.json(route, deep) }), jsonRefusal),
      ).toEqual([]);
      expect(
        await raw.sweep(bodyRoutes, (route) => ({ request: raw.json(route, justDeep) }), jsonRefusal),
      ).toEqual([]);
      // Brackets inside strings are text, not nesting.
      const inString = JSON.stringify({ text: '['.repeat(5000) });
      const answer = await rawRequest(
        raw.port,
        withBody(
          'POST',
          '/api/owner/session',
          { 'content-type': 'application/json', origin: raw.server.url },
          inString,
          raw.port,
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
        expect(
          await raw.sweep(bodyRoutes, (route) => ({ request: raw.json(route, body) }), jsonRefusal),
        ).toEqual([]);
      }
    });

    it('refuses a body that is not an object or array (null, a number, a string) on every entry', async () => {
      // `/mcp` answers valid JSON that is no message as JSON-RPC's Invalid Request.
      const notAMessage = (route: Parameters<typeof jsonRefusal>[0]) =>
        isMcp(route) && !mcpNotAllowed(route) ? { rpc: -32600 } : jsonRefusal(route);
      for (const body of ['null', ' null ', '42', '"text"', 'true']) {
        expect(
          await raw.sweep(bodyRoutes, (route) => ({ request: raw.json(route, body) }), notAMessage),
          body,
        ).toEqual([]);
      }
    });

    it('refuses a field named twice in one object, at any depth and however it is spelled', async () => {
      for (const body of [
        '{"a":1,"a":2}',
        '{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}',
        '{"x":{"b":1,"c":[{"d":1}],"b":2}}',
        '[{"a":1,"\\u0061":2}]',
        '{"text":"hi","snapshot":{"url":"u","title":"t","title":"u"}}',
      ]) {
        expect(
          await raw.sweep(bodyRoutes, (route) => ({ request: raw.json(route, body) }), jsonRefusal),
          body,
        ).toEqual([]);
      }
      // The same name in two different objects, or as a value, is no duplicate.
      const answer = await rawRequest(
        raw.port,
        withBody(
          'POST',
          '/api/owner/session',
          { 'content-type': 'application/json', origin: raw.server.url },
          '{"a":{"a":"a"},"b":[{"a":1},{"a":2}],"c":"a"}',
          raw.port,
        ),
      );
      expect((answer.json as { error: { message: string } }).error.message).toBe('Unknown field "a".');
    });

    it('refuses other media types, a body without one, and charsets other than UTF-8 (415)', async () => {
      for (const headers of [
        { 'content-type': 'text/plain' },
        { 'content-type': undefined },
        { 'content-type': 'application/json; charset=latin1' },
        { 'content-type': 'application/x-www-form-urlencoded' },
      ]) {
        const failures = await raw.sweep(
          bodyRoutes,
          (route) => ({
            request: withBody(
              route.method,
              route.path,
              { ...raw.credentials(route), ...headers },
              '{}',
              raw.port,
            ),
          }),
          refusedAs('unsupported_media_type'),
        );
        expect(failures, JSON.stringify(headers)).toEqual([]);
      }
    });

    it('refuses oversized bodies, declared or streamed in chunks (413)', async () => {
      const declared = await raw.sweep(
        bodyRoutes,
        (route) => ({
          request: head(
            route.method,
            route.path,
            {
              'content-type': 'application/json',
              'content-length': String(OVER_EVERY_LIMIT),
              ...raw.credentials(route),
            },
            raw.port,
          ),
        }),
        refusedAs('too_large'),
      );
      expect(declared).toEqual([]);
      const chunk = `${OVER_EVERY_LIMIT.toString(16)}\r\n${'a'.repeat(OVER_EVERY_LIMIT)}\r\n0\r\n\r\n`;
      const streamed = await raw.sweep(
        bodyRoutes,
        (route) => ({
          request:
            head(
              route.method,
              route.path,
              {
                'content-type': 'application/json',
                'transfer-encoding': 'chunked',
                ...raw.credentials(route),
              },
              raw.port,
            ) + chunk,
        }),
        refusedAs('too_large'),
      );
      expect(streamed).toEqual([]);
    });

    it('closes a stalled body and a slow one with 408 request_timeout', async () => {
      const raw = await startRawSuite(dialect, 'short');
      onTestFinished(() => raw.server.close());
      const stalled = await raw.sweep(
        bodyRoutes,
        (route) => ({
          request: Buffer.concat([
            Buffer.from(
              head(
                route.method,
                route.path,
                { 'content-type': 'application/json', 'content-length': '1000', ...raw.credentials(route) },
                raw.port,
              ),
            ),
            Buffer.from('{"a":"'),
          ]),
        }),
        (route) => (mcpNotAllowed(route) ? { rpc: -32000 } : { code: 'request_timeout' }),
      );
      expect(stalled).toEqual([]);
      const slow = await rawRequest(raw.port, '', {
        parts: [
          head(
            'POST',
            '/api/owner/session',
            { 'content-type': 'application/json', 'content-length': '1000' },
            raw.port,
          ),
          '{"email":"',
          // A client that never stops trickling (a byte every 150 ms for 150 s) is still cut off
          // by the whole-request timeout, long before it runs out of bytes.
          ...Array.from({ length: 990 }, () => 'a'),
        ],
        pauseMs: 150,
        timeoutMs: 120_000,
      });
      expect(mismatch(slow, { code: 'request_timeout' }, 'POST')).toBeNull();
      expect(slow.partsSent).toBeLessThan(991);
      // Headers that never finish are cut off too.
      const slowHead = await rawRequest(raw.port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1');
      expect(mismatch(slowHead, { code: 'request_timeout' }, 'GET')).toBeNull();
    });

    it('refuses a body on GET, HEAD and DELETE rather than dropping it (405 on /mcp)', async () => {
      const failures = await raw.sweep(
        (route) => ['GET', 'HEAD', 'DELETE'].includes(route.method),
        (route) => ({ request: raw.json(route, '{"all":true}') }),
        (route) => (isMcp(route) ? { rpc: -32000 } : { code: 'invalid_input' }),
      );
      expect(failures).toEqual([]);
      // DELETE /mcp naming JSON but sending nothing is the documented 405, not a parse error.
      const bare = await rawRequest(
        raw.port,
        head(
          'DELETE',
          '/mcp',
          { 'content-type': 'application/json', authorization: `Bearer ${raw.token}` },
          raw.port,
        ),
      );
      expect(mismatch(bare, { rpc: -32000 }, 'DELETE')).toBeNull();
      expect(bare.status).toBe(405);
      expect(bare.headers.allow).toBe('POST');
    });

    it('is still answering, and nothing any of these bodies sent changed a row', async () => {
      expect((await rawRequest(raw.port, head('GET', '/healthz', {}, raw.port))).status).toBe(200);
      await raw.unchanged();
    });
  },
);
