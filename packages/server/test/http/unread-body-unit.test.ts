import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, expect, it } from 'vitest';
import { drainUnreadBody } from '../../src/http/unread-body.js';

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

  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  const until = async (done: () => boolean) => {
    while (!done() && !socket.destroyed) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const length = 2 * 1024 * 1024;
  socket.write(`POST / HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: ${length}\r\n\r\n`);
  socket.write(Buffer.alloc(64 * 1024, 'a'));
  await until(() => received.includes('refused'));
  socket.write(Buffer.alloc(length - 64 * 1024, 'a'));
  socket.write('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
  await Promise.race([
    until(() => received.includes('next')),
    new Promise((resolve) => setTimeout(resolve, 3_000)),
  ]);
  socket.destroy();
  expect(received.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
});
