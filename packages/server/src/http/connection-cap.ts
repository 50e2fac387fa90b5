import type { Socket } from 'node:net';
import { DioscError } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import { writeRawError } from './raw-reply.js';

/**
 * At most `max` open connections, and at most `perAddress` from one client address — so one
 * client cannot take every connection, and the share visitors cannot take (`visitor-caps.ts`)
 * stays reachable. One more is answered at once (503 `busy` over the total, 429 `too_many_open`
 * over the address's) and closed; a request that arrived on it anyway is never run (the hook below
 * drops it before any route sees it).
 */
export function installConnectionCap(app: FastifyInstance, max: number, perAddress: number): void {
  const open = new Set<Socket>();
  const byAddress = new Map<string, number>();
  const refused = new WeakSet<Socket>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const fromAddress = byAddress.get(address) ?? 0;
    if (open.size >= max || fromAddress >= perAddress) {
      refused.add(socket);
      if (open.size >= max)
        writeRawError(socket, 'busy', 'The server has too many open connections; retry shortly.');
      else
        writeRawError(
          socket,
          'too_many_open',
          'This address has too many open connections; close one or retry shortly.',
        );
      return;
    }
    open.add(socket);
    byAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      open.delete(socket);
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left <= 0) byAddress.delete(address);
      else byAddress.set(address, left);
    });
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
