import { connect, type Socket } from 'node:net';
import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { MCP_BODY_LIMIT } from '../../src/mcp/plugin.js';
import { ALL_NOTES, createConnection } from '../mcp/support.js';

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

/** One keep-alive connection, written to and read from by hand; it records how it ended. */
class Connection {
  readonly socket: Socket;
  #received = Buffer.alloc(0);
  #waiters: (() => void)[] = [];
  error: NodeJS.ErrnoException | undefined;
  closed = false;
  /** The server ended its side of the connection. */
  serverEnded = false;

  /** `halfOpen`: the client's side stays open for writing after the server ended its own. */
  constructor(port: number, halfOpen = false) {
    this.socket = connect({ port, host: '127.0.0.1', allowHalfOpen: halfOpen });
    this.socket.on('data', (chunk) => {
      this.#received = Buffer.concat([this.#received, chunk]);
      this.#wake();
    });
    this.socket.on('error', (error) => {
      this.error = error;
    });
    this.socket.on('end', () => {
      this.serverEnded = true;
      this.#wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.#wake();
    });
  }

  #wake() {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** Writes, and waits until the kernel took it (so a reset shows as an error, not a lost write). */
  write(bytes: string | Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) resolve();
      else this.socket.write(bytes, () => resolve());
    });
  }

  /** The next whole response (head and Content-Length body), or null when the connection ended first. */
  async response(): Promise<{ status: number; head: string; body: string } | null> {
    for (;;) {
      const end = this.#received.indexOf('\r\n\r\n');
      if (end !== -1) {
        const head = this.#received.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (this.#received.length >= end + 4 + length) {
          const body = this.#received.subarray(end + 4, end + 4 + length).toString('utf8');
          this.#received = this.#received.subarray(end + 4 + length);
          return { status: Number(head.slice(9, 12)), head, body };
        }
      }
      if (this.closed) return null;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Resolves when the server has closed the connection. */
  async ended(): Promise<void> {
    while (!this.closed) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  /** Resolves when the server has ended its side of the connection (or closed it). */
  async serverDone(): Promise<void> {
    while (!this.serverEnded && !this.closed)
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }
}

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
  it.each([
    { why: 'a body over the limit', code: 'too_large', status: 413, authorized: true },
    { why: 'no credentials', code: 'unauthenticated', status: 401, authorized: false },
  ])('answers $why, reads the rest of the body, and keeps the connection', async (refusal) => {
    server = await startTestServer({ dialect });
    const port = Number(new URL(server.url).port);
    const { token } = await createConnection(server, [ALL_NOTES]);
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
    const chunk = Buffer.alloc(64 * 1024, 'a');
    for (let left = length - opening.length; left > 0; left -= chunk.length)
      await connection.write(left >= chunk.length ? chunk : chunk.subarray(0, left));
    await connection.write(`GET /healthz HTTP/1.1\r\nhost: ${host(port)}\r\n\r\n`);

    const next = await connection.response();
    expect(connection.error).toBeUndefined();
    expect(next?.status).toBe(200);
    expect(JSON.parse(next!.body)).toMatchObject({ status: 'ok' });
    connection.socket.destroy();
  });

  it('answers a client that asked to close, reads the rest of the body, and only then closes', async () => {
    server = await startTestServer({ dialect });
    const port = Number(new URL(server.url).port);
    const { token } = await createConnection(server, [ALL_NOTES]);
    const length = MCP_BODY_LIMIT + 300_000;
    const connection = new Connection(port, true);
    await connection.write(mcpHead(port, length, token, true));
    const refused = await connection.response();
    expect(refused?.status).toBe(413);

    // The server has said all it will (its side is ended); a server that also stopped reading resets.
    await connection.serverDone();
    expect(connection.serverEnded).toBe(true);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    for (let left = length; left > 0; left -= chunk.length)
      await connection.write(left >= chunk.length ? chunk : chunk.subarray(0, left));
    connection.socket.end();
    await connection.ended();
    expect(connection.error).toBeUndefined();
  });

  it('closes the connection once the dropped bytes pass the bound', async () => {
    const maxBytes = 512 * 1024;
    server = await startTestServer({
      dialect,
      app: { http: { unreadBodyDrain: { maxBytes, maxMs: 60_000 } } },
    });
    const port = Number(new URL(server.url).port);
    const { token } = await createConnection(server, [ALL_NOTES]);
    const declared = 200 * 1024 * 1024;
    const connection = new Connection(port);
    await connection.write(mcpHead(port, declared, token));
    expect((await connection.response())?.status).toBe(413);

    let written = 0;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    while (!connection.socket.destroyed && written < declared) {
      await connection.write(chunk);
      written += chunk.length;
    }
    await connection.ended();
    expect(written).toBeGreaterThan(maxBytes);
    expect(written).toBeLessThan(declared);
  });

  it('closes the connection when the rest of the body does not come', async () => {
    server = await startTestServer({
      dialect,
      app: { http: { unreadBodyDrain: { maxBytes: 16 * 1024 * 1024, maxMs: 200 } } },
    });
    const port = Number(new URL(server.url).port);
    const { token } = await createConnection(server, [ALL_NOTES]);
    const connection = new Connection(port);
    // The server's request timeout is 30 s; only the drain's bound closes this one sooner.
    await connection.write(mcpHead(port, MCP_BODY_LIMIT + 1_000, token));
    expect((await connection.response())?.status).toBe(413);
    await connection.ended();
    expect(await connection.response()).toBeNull();
  });

  it('closes, without a second answer, when the request timeout ends the drain', async () => {
    server = await startTestServer({
      dialect,
      app: {
        http: {
          requestTimeoutMs: 600,
          headersTimeoutMs: 500,
          timeoutCheckIntervalMs: 100,
          unreadBodyDrain: { maxBytes: 16 * 1024 * 1024, maxMs: 60_000 },
        },
      },
    });
    const port = Number(new URL(server.url).port);
    const { token } = await createConnection(server, [ALL_NOTES]);
    const connection = new Connection(port);
    await connection.write(mcpHead(port, MCP_BODY_LIMIT + 1_000, token));
    expect((await connection.response())?.status).toBe(413);
    await connection.ended();
    // A 408 here would be read as the answer to the client's next request.
    expect(await connection.response()).toBeNull();
  });
});
