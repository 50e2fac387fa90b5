import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DioscError } from '@diosc/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGuardedFetch } from '../../../src/hub/outbound/guarded-fetch.js';

/**
 * The names this test's resolver knows: the guarded fetch checks every address a name resolves to,
 * so a DNS answer that mixes a public address with a private one (a rebinding attacker's answer)
 * is refused before any connection. Names end in `.test` (RFC 2606): no real resolver answers them.
 */
const ANSWERS: Record<string, LookupAddress[]> = {
  'mixed.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.7', family: 4 },
  ],
  'metadata.test': [
    { address: '2606:4700::1111', family: 6 },
    { address: '169.254.169.254', family: 4 },
  ],
  'loopback.test': [{ address: '127.0.0.1', family: 4 }],
};
const LONG_NAME = `${'a'.repeat(60)}.${'b'.repeat(60)}.test`;
ANSWERS[LONG_NAME] = [{ address: '127.0.0.1', family: 4 }];
const asked: string[] = [];

vi.mock('node:dns', async (original) => {
  const dns = await original<typeof import('node:dns')>();
  const lookup = (
    hostname: string,
    options: { all?: boolean },
    callback: (error: NodeJS.ErrnoException | null, addresses?: LookupAddress[]) => void,
  ) => {
    asked.push(hostname);
    const answer = ANSWERS[hostname];
    process.nextTick(() => {
      if (!answer) {
        const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        error.code = 'ENOTFOUND';
        return callback(error);
      }
      expect(options.all).toBe(true);
      callback(null, answer);
    });
  };
  return { ...dns, default: { ...dns, lookup }, lookup };
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the fetch was expected to fail'),
    (caught: unknown) => caught,
  );
}

describe('the outbound guard on names and redirects', () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      hits.push(`${request.method} ${request.url}`);
      const status = Number(/^\/status\/(\d{3})$/.exec(request.url ?? '')?.[1] ?? 0);
      if (status) return response.writeHead(status, { location: '/ok' }).end();
      const redirects: Record<string, string> = {
        '/to-ftp': 'ftp://127.0.0.1/ok',
        '/to-credentials': `http://user:secret@127.0.0.1:${port}/ok`,
        '/to-file': 'file:///etc/passwd',
        '/loop': '/loop',
      };
      const to = redirects[request.url ?? ''];
      if (to) return response.writeHead(302, { location: to }).end();
      if (request.url === '/no-location') return response.writeHead(302).end('moved, nowhere');
      response.writeHead(200, { 'content-type': 'text/plain' }).end('fetched');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('passes http and https, names and public literals to the connection; refuses private literals at once', () => {
    const guarded = createGuardedFetch({ allowPrivate: false });
    for (const url of [
      'https://example.com/sitemap.xml',
      'http://example.com/',
      // A name is judged where it is resolved, whatever it looks like.
      'http://localhost/',
      'http://10.0.0.1.example/',
      'https://93.184.216.34/',
      'https://[2606:4700::1111]/',
    ])
      expect(guarded.check(url).href, url).toBe(new URL(url).href);
    for (const url of ['http://10.0.0.1/', 'https://[fd00::1]/', 'http://[::ffff:169.254.169.254]/']) {
      expect(() => guarded.check(url), url).toThrow(
        'That address is not on the public internet, so the server does not fetch it.',
      );
    }
    // With private addresses allowed, a literal passes; the scheme and credential rules still hold.
    const open = createGuardedFetch({ allowPrivate: true });
    expect(open.check('http://10.0.0.1/').hostname).toBe('10.0.0.1');
    expect(() => open.check('gopher://10.0.0.1/')).toThrow('Only http and https URLs are fetched.');
  });

  it('refuses a name when any address it resolves to is not public, before connecting', async () => {
    const guarded = createGuardedFetch({ allowPrivate: false });
    hits.length = 0;
    for (const name of ['mixed.test', 'metadata.test', 'loopback.test']) {
      const error = await failure(guarded(`http://${name}:${port}/ok`));
      expect(DioscError.isInstance(error), String(error)).toBe(true);
      expect((error as DioscError).code).toBe('fetch_refused');
      expect((error as DioscError).message).toBe(`${name} resolves to an address that is not public.`);
    }
    // The name in the message is cut to 100 characters.
    const long = await failure(guarded(`http://${LONG_NAME}:${port}/ok`));
    expect((long as DioscError).message).toBe(
      `${LONG_NAME.slice(0, 100)} resolves to an address that is not public.`,
    );
    expect(hits).toEqual([]);
    expect(asked).toContain('mixed.test');
  });

  it('connects to a private address by name only when the operator allows it', async () => {
    const guarded = createGuardedFetch({ allowPrivate: true });
    hits.length = 0;
    const reply = await guarded(`http://loopback.test:${port}/ok`);
    expect([reply.status, await reply.text()]).toEqual([200, 'fetched']);
    expect(hits).toEqual(['GET /ok']);
  });

  it('answers a name that does not resolve as a plain fetch failure, not a refusal', async () => {
    const guarded = createGuardedFetch({ allowPrivate: false });
    const error = await failure(guarded(`http://nowhere.test:${port}/ok`));
    expect(DioscError.isInstance(error)).toBe(false);
    expect(String((error as Error).cause)).toContain('ENOTFOUND');
  });

  it('follows every 3xx with a Location (300 to 399) and nothing else', async () => {
    const guarded = createGuardedFetch({ allowPrivate: true });
    for (const status of [300, 301, 303, 308, 399]) {
      hits.length = 0;
      const reply = await guarded(`http://127.0.0.1:${port}/status/${status}`);
      expect([reply.status, await reply.text()], String(status)).toEqual([200, 'fetched']);
      expect(hits).toEqual([`GET /status/${status}`, 'GET /ok']);
    }
    for (const status of [200, 299, 400, 404]) {
      hits.length = 0;
      const reply = await guarded(`http://127.0.0.1:${port}/status/${status}`);
      expect(reply.status, String(status)).toBe(status);
      expect(reply.headers.get('location')).toBe('/ok');
      await reply.body?.cancel();
      expect(hits).toEqual([`GET /status/${status}`]);
    }
    hits.length = 0;
    const nowhere = await guarded(`http://127.0.0.1:${port}/no-location`);
    expect([nowhere.status, await nowhere.text()]).toEqual([302, 'moved, nowhere']);
    expect(hits).toEqual(['GET /no-location']);
  });

  it('checks each redirect target like the first URL: scheme and credentials, on any policy', async () => {
    for (const allowPrivate of [false, true]) {
      // The first hop is this machine, so only the open policy reaches it; both must refuse the rest.
      const guarded = createGuardedFetch({ allowPrivate });
      for (const [path, message] of [
        ['/to-ftp', 'Only http and https URLs are fetched.'],
        ['/to-file', 'Only http and https URLs are fetched.'],
        ['/to-credentials', 'A URL with a user name or password is not fetched.'],
      ] as const) {
        hits.length = 0;
        const error = await failure(guarded(`http://127.0.0.1:${port}${path}`));
        expect(DioscError.isInstance(error), String(error)).toBe(true);
        if (allowPrivate) {
          expect([(error as DioscError).code, (error as DioscError).message], path).toEqual([
            'fetch_refused',
            message,
          ]);
          expect(hits).toEqual([`GET ${path}`]);
        } else {
          expect((error as DioscError).code).toBe('fetch_refused');
          expect(hits).toEqual([]);
        }
      }
    }
  });

  it('says why it gave up: not a URL, too many redirects, a redirected write', async () => {
    const guarded = createGuardedFetch({ allowPrivate: true });
    const refusals = [
      await failure(guarded('not a url')),
      await failure(guarded(`http://127.0.0.1:${port}/loop`)),
      await failure(guarded(`http://127.0.0.1:${port}/status/302`, { method: 'POST', body: 'x' })),
    ].map((error) => [(error as DioscError).code, (error as DioscError).message]);
    expect(refusals).toEqual([
      ['invalid_input', 'That is not a URL.'],
      ['fetch_failed', 'The URL redirects too many times.'],
      ['fetch_failed', 'The server answered with a redirect.'],
    ]);
  });
});
