import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { DioscError, type ErrorCode } from '@diosc/protocol';

/**
 * A refusal written straight to a socket, for the moments before Fastify has a request to answer
 * (a malformed request line, headers over the limit, a request that timed out, a connection over
 * the cap): the same `{ error }` body and headers as every other refusal, then the socket closes.
 */
export function writeRawError(socket: Socket, code: ErrorCode, message?: string): void {
  if (socket.destroyed) return;
  const error = new DioscError(code, message);
  const body = JSON.stringify({ error: error.toWire() });
  const retryAfter = error.retryable ? 'Retry-After: 1\r\n' : '';
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'Cache-Control: no-store\r\n' +
        retryAfter +
        'Connection: close\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.end();
  // A client that never reads would keep the socket open; give it a moment to, then drop it.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
