import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { MCP_BODY_LIMIT } from '../../src/mcp/plugin.js';
import { ALL_NOTES, createConnection } from '../mcp/support.js';
import { Connection } from './keep-alive-connection.js';
import { snapshot } from './snapshot.js';

/**
 * A refusal sent while its request's body is still arriving (over the limit, or a caller refused
 * before the body is read) must reach a client that goes on sending: the server reads the rest and
 * drops it, so it never closes with bytes unread (which the kernel answers with a reset).
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const host = (port: number) => `127.0.0.1:${port}`;
const mcpHead = (port: number, length: number, token?: string, close = false) =>
  [
    'POST /mcp HTTP/1.1',
    `host: ${host(port)}`,
    ...(close ? ['connection: close'] : []),
    'content-type: application/json',
    'accept: application/json, text/event-stream',
    ...(token ? [`authorization: Bearer ${token}`] : []),
    `content-length: ${length}`,
    '',
    '',
  ].join('\r\n');

describe.each(DIALECTS)('a refusal while the body is still arriving ($name)', (dialect) => {
  /** The server with `http` over its limits, its port, and a token of an HTTP MCP connection. */
  async function start(http: NonNullable<Parameters<typeof startTestServer>[0]>['app'] = {}) {
    server = await startTestServer({ dialect, app: http });
    const { token } = await createConnection(server, [ALL_NOTES]);
    return { port: Number(new URL(server.url).port), token };
  }

  it.each([
    { why: 'a body over the limit', code: 'too_large', status: 413, authorized: true },
    { why: 'no credentials', code: 'unauthenticated', status: 401, authorized: false },
  ])('answers $why, reads the rest of the body, and keeps the connection', async (refusal) => {
    const { port, token } = await start();
    const before = await snapshot(server!.store);
    const length = MCP_BODY_LIMIT + 300_000;
    const connection = new Connection(port);
    await connection.write(mcpHead(port, length, refusal.authorized ? token : undefined));
    const opening = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"';
    await connection.write(opening);

    const refused = await connection.response();
    expect(refused?.status).toBe(refusal.status);
    expect(JSON.parse(refused!.body)).toMatchObject({ error: { code: refusal.code } });
    expect(refused!.head).not.toMatch(/\r\nconnection: *close/i);

    // The rest of the body, sent only now that the refusal is in: a server that closed would reset.
    await connection.fill(length - opening.length);
    await connection.write(`GET /healthz HTTP/1.1\r\nhost: ${host(port)}\r\n\r\n`);

    const next = await connection.response();
    expect(connection.error).toBeUndefined();
    expect(next?.status).toBe(200);
    expect(JSON.parse(next!.body)).toMatchObject({ status: 'ok' });
    connection.socket.destroy();
    expect(await snapshot(server!.store)).toEqual(before);
  });

  it('answers a client that asked to close, reads the rest of the body, and only then closes', async () => {
    const { port, token } = await start();
    const length = MCP_BODY_LIMIT + 300_000;
    const connection = new Connection(port, true);
    await connection.write(mcpHead(port, length, token, true));
    const refused = await connection.response();
    expect(refused?.status).toBe(413);

    // The server has said all it will (its side is ended); a server that also stopped reading resets.
    await connection.serverDone();
    expect(connection.serverEnded).toBe(true);
    await connection.fill(length);
    connection.socket.end();
    await connection.ended();
    expect(connection.error).toBeUndefined();
  });

  it('closes the connection once the dropped bytes pass the bound', async () => {
    const maxBytes = 512 * 1024;
    const { port, token } = await start({ http: { unreadBodyDrain: { maxBytes, maxMs: 60_000 } } });
    const declared = 200 * 1024 * 1024;
    const connection = new Connection(port);
    await connection.write(mcpHead(port, declared, token));
    expect((await connection.response())?.status).toBe(413);

    const written = await connection.fill(declared);
    await connection.ended();
    expect(written).toBeGreaterThan(maxBytes);
    expect(written).toBeLessThan(declared);
  });

  it('closes the connection when the rest of the body does not come', async () => {
    const { port, token } = await start({
      http: { unreadBodyDrain: { maxBytes: 16 * 1024 * 1024, maxMs: 200 } },
    });
    const connection = new Connection(port);
    // The server's request timeout is 30 s; only the drain's bound closes this one sooner.
    await connection.write(mcpHead(port, MCP_BODY_LIMIT + 1_000, token));
    expect((await connection.response())?.status).toBe(413);
    await connection.ended();
    expect(await connection.response()).toBeNull();
  });

  it('closes, without a second answer, when the request timeout ends the drain', async () => {
    const { port, token } = await start({
      http: {
        requestTimeoutMs: 600,
        headersTimeoutMs: 500,
        timeoutCheckIntervalMs: 100,
        unreadBodyDrain: { maxBytes: 16 * 1024 * 1024, maxMs: 60_000 },
      },
    });
    const connection = new Connection(port);
    await connection.write(mcpHead(port, MCP_BODY_LIMIT + 1_000, token));
    expect((await connection.response())?.status).toBe(413);
    await connection.ended();
    // A 408 here would be read as the answer to the client's next request.
    expect(await connection.response()).toBeNull();
  });
});
