import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { drainUnreadBody } from '../../src/http/unread-body.js';
import { Connection } from './keep-alive-connection.js';

/**
 * `drainUnreadBody` on a bare Node server: a body whose reader gave up part-way (a stream piped
 * into a consumer that stopped, then unpiped — what a multipart parser does when its file is
 * refused) is still read to its end, so the connection's next request is answered.
 */
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

it('reads the rest of a body whose reader stopped and left it paused', async () => {
  server = createServer((request, response) => {
    if (request.method === 'GET') {
      response.end('next');
      return;
    }
    // A consumer that takes one chunk and never asks for more, then is dropped.
    const stalled = new Writable({ highWaterMark: 1, write: () => {} });
    request.pipe(stalled);
    request.once('data', () => {
      setTimeout(() => {
        request.unpipe(stalled);
        drainUnreadBody(request, { maxBytes: 16 * 1024 * 1024, maxMs: 60_000 });
        response.statusCode = 413;
        response.end('refused');
      }, 20);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;

  const connection = new Connection(port);
  const length = 2 * 1024 * 1024;
  await connection.write(`POST / HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: ${length}\r\n\r\n`);
  await connection.fill(64 * 1024);
  expect((await connection.response())?.status).toBe(413);
  // Not awaited: a server that stopped reading never takes all of it.
  void connection
    .fill(length - 64 * 1024)
    .then(() => connection.write('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n'));
  // Unanswered, the next request would wait for ever: give up on it after a while instead.
  const next = await Promise.race([
    connection.response(),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
  ]);
  connection.socket.destroy();
  expect(next?.status).toBe(200);
  expect(next?.body).toBe('next');
});
