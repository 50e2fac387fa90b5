import type { Socket } from 'node:net';
import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS } from '../../src/http/server-limits.js';
import { call, signIn } from '../owner/owner-client.js';
import { head, openSocket, rawRequest, withBody } from './raw-client.js';
import { snapshot } from './snapshot.js';

let server: TestServer | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

const portOf = (s: TestServer) => Number(new URL(s.url).port);

/** Reads what arrives on a socket until it closes. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
  });
}

describe.each(DIALECTS)('HTTP limits ($name)', (dialect) => {
  it('has finite timeouts and a connection cap by default (Fastify’s request timeout is none)', () => {
    expect(DEFAULT_HTTP_LIMITS.requestTimeoutMs).toBeGreaterThan(0);
    expect(DEFAULT_HTTP_LIMITS.headersTimeoutMs).toBeGreaterThan(0);
    expect(DEFAULT_HTTP_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(DEFAULT_HTTP_LIMITS.requestTimeoutMs);
    expect(DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs).toBeGreaterThan(0);
    expect(DEFAULT_HTTP_LIMITS.maxConnections).toBeGreaterThan(0);
  });

  it('applies them to the real server', async () => {
    server = await startTestServer({ dialect });
    expect(server.app.server.requestTimeout).toBe(DEFAULT_HTTP_LIMITS.requestTimeoutMs);
    expect(server.app.server.headersTimeout).toBe(DEFAULT_HTTP_LIMITS.headersTimeoutMs);
    expect(server.app.server.keepAliveTimeout).toBe(DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs);
  });

  it('answers a connection over the cap with 503 busy, and never runs a request sent on it', async () => {
    server = await startTestServer({ dialect, app: { http: { maxConnections: 2 } } });
    const port = portOf(server);
    const owner = await signIn(server.url);
    const before = await snapshot(server.store);
    for (let i = 0; i < 2; i++) sockets.push(await openSocket(port));
    await new Promise((done) => setTimeout(done, 50));
    // A write on the third connection, sent at once: it must be refused, not run.
    const create = withBody(
      'POST',
      '/api/owner/connections',
      {
        'content-type': 'application/json',
        origin: server.url,
        cookie: owner.cookie,
        'x-csrf-token': owner.csrfToken,
      },
      JSON.stringify({
        displayName: 'over the cap',
        grant: [{ collection: 'notes', functions: ['items_list'] }],
      }),
      port,
    );
    const answer = await rawRequest(port, create);
    expect(answer.status).toBe(503);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.json).toMatchObject({ error: { code: 'busy', retryable: true } });
    await new Promise((done) => setTimeout(done, 100));
    expect(await snapshot(server.store)).toEqual(before);
    // Once a slot is free, the next connection is served.
    sockets.shift()?.destroy();
    await new Promise((done) => setTimeout(done, 50));
    expect((await rawRequest(port, head('GET', '/healthz', {}, port))).status).toBe(200);
  });

  it('answers a request that arrives while the server shuts down with 503 busy in the documented shape', async () => {
    server = await startTestServer({ dialect });
    const port = portOf(server);
    // One connection is mid-request (headers not finished), so it is not idle when closing starts.
    const socket = await openSocket(port);
    sockets.push(socket);
    const answer = readAll(socket);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`);
    await new Promise((done) => setTimeout(done, 50));
    const closing = server.app.close();
    await new Promise((done) => setTimeout(done, 50));
    socket.write('\r\n');
    const text = await answer;
    await closing;
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text.toLowerCase()).toContain('cache-control: no-store');
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: { code: 'busy', retryable: true },
    });
    await server.store.close();
    server = undefined;
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    server = await startTestServer({ dialect, app: { http: { keepAliveTimeoutMs: 200 } } });
    const port = portOf(server);
    const socket = await openSocket(port);
    sockets.push(socket);
    socket.resume();
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now())));
    const started = performance.now();
    socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect((await closed) - started).toBeLessThan(2_000);
    // And a fetch still works afterwards.
    expect((await call(server.url, '/session', null)).status).toBe(401);
  });
});
