import type { Socket } from 'node:net';
import { DioscError } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import { writeRawError } from './raw-reply.js';

/**
 * At most `max` open connections. One more is answered 503 `busy` at once and closed; a request
 * that arrived on it anyway is never run (the hook below drops it before any route sees it).
 */
export function installConnectionCap(app: FastifyInstance, max: number): void {
  const open = new Set<Socket>();
  const refused = new WeakSet<Socket>();
  app.server.on('connection', (socket: Socket) => {
    if (open.size >= max) {
      refused.add(socket);
      writeRawError(socket, 'busy', 'The server has too many open connections; retry shortly.');
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (refused.has(request.raw.socket)) reply.hijack();
    done();
  });
}

/**
 * While the server shuts down, a request that still arrives on an open keep-alive connection is
 * answered 503 `busy` in the documented shape (Fastify's own 503 has its own) and not run.
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) {
      done();
      return;
    }
    reply.header('connection', 'close');
    done(new DioscError('busy', 'The server is shutting down; retry shortly.'));
  });
}
