import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

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
 * we wrote. Draining keeps the answer readable (and a kept-alive connection usable for the next
 * request); the bound keeps a client that declares gigabytes from holding the server.
 */
export function drainUnreadBody(request: IncomingMessage, drain: UnreadBodyDrain): void {
  if (request.complete) return;
  const socket = request.socket;
  draining.add(socket);
  // A connection that ends with this answer (its client asked, or we did) is ended by Node with
  // `destroySoon()`: closed as soon as the answer is flushed, the body's rest unread. Here it waits
  // for the rest of the body (bounded as below) before it closes: a lingering close.
  const destroySoon = socket.destroySoon;
  let closeWhenRead = false;
  socket.destroySoon = () => {
    closeWhenRead = true;
    socket.end();
  };
  let read = 0;
  const stop = () => {
    clearTimeout(timer);
    request.off('data', count);
    request.off('end', stop);
    socket.off('close', stop);
    draining.delete(socket);
    socket.destroySoon = destroySoon;
    if (closeWhenRead) socket.destroySoon();
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
  // Whatever was reading the body has given up on it (an upload's multipart parser is unpiped and
  // the request left paused when its file is refused); the rest is read here, or it would sit in
  // front of the client's next request on this connection.
  request.unpipe();
  request.on('data', count);
  request.once('end', stop);
  socket.once('close', stop);
  request.resume();
}

const draining = new WeakSet<Socket>();

/** True while a connection's request is answered and the rest of its body is being dropped. */
export function isDraining(socket: Socket): boolean {
  return draining.has(socket);
}
