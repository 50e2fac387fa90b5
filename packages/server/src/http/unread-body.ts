import type { IncomingMessage } from 'node:http';

/** How much of a refused request's body the server still reads, so its client can read the refusal. */
export interface UnreadBodyDrain {
  /** Bytes read and dropped after the refusal; one more closes the connection. */
  maxBytes: number;
  /** Time the rest of the body may take to arrive; then the connection closes. */
  maxMs: number;
}

/**
 * A refusal sent before its request's body was read (a declared or streamed body over the limit,
 * a caller refused by a hook before parsing): the rest of the body is read and dropped, up to
 * `drain`; past it the connection closes.
 *
 * A socket closed with bytes still unread is reset by the kernel (RFC 9112 §9.6, the "lingering
 * close" problem): a client still sending its body then reads ECONNRESET instead of the refusal
 * we wrote. Draining keeps the answer readable (and the connection usable for the next request);
 * the bound keeps a client that declares gigabytes from holding the server.
 */
export function drainUnreadBody(request: IncomingMessage, drain: UnreadBodyDrain): void {
  if (request.complete) return;
  const socket = request.socket;
  let read = 0;
  const stop = () => {
    clearTimeout(timer);
    request.off('data', count);
    request.off('end', stop);
    socket.off('close', stop);
  };
  const cut = () => {
    stop();
    socket.destroy();
  };
  const count = (chunk: Buffer) => {
    read += chunk.length;
    if (read > drain.maxBytes) cut();
  };
  const timer = setTimeout(cut, drain.maxMs);
  timer.unref();
  request.on('data', count);
  request.once('end', stop);
  socket.once('close', stop);
}
