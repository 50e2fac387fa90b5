import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DioscError } from '@diosc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch, type OutboundLookup } from '../../src/hub/outbound/guarded-fetch.js';
import { isPublicAddress } from '../../src/hub/outbound/public-address.js';

/**
 * The fetch for owner-given URLs, from the attacker's side: a URL that names this machine — by
 * address or by a name that resolves to it — is refused before any connection (the server below
 * counts every request it gets), and redirects are followed by hand with a bound.
 */
describe('the guarded fetch of owner-given URLs', () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      hits.push(`${request.method} ${request.url}`);
      const redirects: Record<string, string> = {
        '/hop': '/ok',
        '/loop': '/loop',
        '/write': '/ok',
        '/not-a-url': 'http://[::1',
        '/not-modified': '/ok',
      };
      const to = redirects[request.url ?? ''];
      const status = request.url === '/write' ? 307 : request.url === '/not-modified' ? 304 : 302;
      if (to) response.writeHead(status, { location: to }).end();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('fetched');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function refusal(promise: Promise<unknown>): Promise<string> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(DioscError.isInstance(error), String(error)).toBe(true);
    return (error as DioscError).code;
  }

  it('refuses this machine by address or by name, before connecting', async () => {
    const guarded = createGuardedFetch({ allowPrivate: false });
    hits.length = 0;
    for (const url of [
      `http://127.0.0.1:${port}/ok`,
      `http://[::1]:${port}/ok`,
      `http://[::ffff:127.0.0.1]:${port}/ok`,
      // A name is checked where it is resolved: the address connected to is the one checked.
      `http://localhost:${port}/ok`,
    ]) {
      expect(await refusal(guarded(url)), url).toBe('fetch_refused');
    }
    expect(() => guarded.check(`http://127.0.0.1:${port}/ok`)).toThrow(/public internet/);
    expect(hits).toEqual([]);
  });

  it('refuses other schemes, credentials in the URL and what is not a URL, on any policy', async () => {
    for (const allowPrivate of [false, true]) {
      const guarded = createGuardedFetch({ allowPrivate });
      hits.length = 0;
      expect(await refusal(guarded(`ftp://127.0.0.1:${port}/ok`))).toBe('fetch_refused');
      expect(await refusal(guarded(`file:///etc/passwd`))).toBe('fetch_refused');
      for (const credentials of ['user:secret@', 'user@', ':secret@']) {
        expect(await refusal(guarded(`http://${credentials}127.0.0.1:${port}/ok`)), credentials).toBe(
          'fetch_refused',
        );
      }
      expect(await refusal(guarded('not a url'))).toBe('invalid_input');
      expect(hits).toEqual([]);
    }
  });

  it('follows a read’s redirects by hand, at most three, and never a write’s', async () => {
    const guarded = createGuardedFetch({ allowPrivate: true });
    hits.length = 0;
    const followed = await guarded(`http://localhost:${port}/hop`);
    expect(followed.status).toBe(200);
    expect(await followed.text()).toBe('fetched');
    expect(hits).toEqual(['GET /hop', 'GET /ok']);

    hits.length = 0;
    expect(await refusal(guarded(`http://127.0.0.1:${port}/loop`))).toBe('fetch_failed');
    expect(hits).toEqual(['GET /loop', 'GET /loop', 'GET /loop', 'GET /loop']);

    hits.length = 0;
    expect(await refusal(guarded(`http://127.0.0.1:${port}/write`, { method: 'POST', body: 'x' }))).toBe(
      'fetch_failed',
    );
    expect(hits).toEqual(['POST /write']);
  });

  it('a redirect to what is no URL is a clear failure; a body-less 3xx with a Location is no crash', async () => {
    const guarded = createGuardedFetch({ allowPrivate: true });
    const error = await guarded(`http://127.0.0.1:${port}/not-a-url`).catch((caught: unknown) => caught);
    expect(DioscError.isInstance(error) && [error.code, error.message]).toEqual([
      'fetch_failed',
      'The server redirected to something that is not a URL.',
    ]);
    // A 304 has no body to cancel; the Location it names is followed like any redirect's.
    hits.length = 0;
    const followed = await guarded(`http://127.0.0.1:${port}/not-modified`);
    expect([followed.status, await followed.text()]).toEqual([200, 'fetched']);
    expect(hits).toEqual(['GET /not-modified', 'GET /ok']);
  });

  it('resolves the name again for every connection: an answer that turns private is refused (rebinding)', async () => {
    let answer = '127.0.0.2';
    const lookups: string[] = [];
    const lookup: OutboundLookup = (hostname, _options, callback) => {
      lookups.push(`${hostname} -> ${answer}`);
      callback(null, [{ address: answer, family: 4 }]);
    };
    // 127.0.0.2 stands in for a public address here; the server listens on 127.0.0.1 only, so
    // the first answer reaches nothing and the second would reach it.
    const guarded = createGuardedFetch({
      allowPrivate: false,
      lookup,
      isPublic: (address) => address === '127.0.0.2' || isPublicAddress(address),
    });
    hits.length = 0;
    // Nothing listens there: the connection fails, but the guard let it through.
    const first = await guarded(`http://rebind.test:${port}/ok`).then(
      () => 'answered',
      (error: unknown) => (DioscError.isInstance(error) ? error.code : 'connection failed'),
    );
    expect(first).toBe('connection failed');
    answer = '127.0.0.1';
    expect(await refusal(guarded(`http://rebind.test:${port}/ok`))).toBe('fetch_refused');
    expect(lookups).toEqual([`rebind.test -> 127.0.0.2`, `rebind.test -> 127.0.0.1`]);
    expect(hits).toEqual([]);
  });
});
