import { DioscError } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.js';
import { hostAllowed, hostNameOf, ownHostNames } from './host-names.js';

const BODYLESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** True when the request declares content: a non-zero length, or any transfer coding. */
function declaresBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/**
 * Checks every request passes before any feature sees it, on every entry (`/mcp`, the owner API,
 * the hub, the portal shell, `/healthz`):
 *
 * - **Host** must be one of the server's own names (`ownHostNames`), or a loopback name on a
 *   loopback connection (`hostAllowed`) → else 421 `unknown_host`. A page whose name was rebound
 *   to this address sends its own name, so it is refused here.
 * - **No body on a bodiless method.** GET, HEAD, DELETE and OPTIONS take no body on any route; one
 *   that carries one is refused (400 `invalid_input`) rather than silently dropped. This runs as a
 *   `preParsing` hook, after each feature's own `onRequest` checks (authentication, `/mcp`'s 405).
 */
export function installRequestGuards(app: FastifyInstance, config: ServerConfig): void {
  const names = ownHostNames(config);
  // Callback hooks, not async ones: every request of every route runs these, and a promise per
  // hook per request is measurable on /mcp's budget (bench/results/mcp.md).
  // The last Host allowed, with the local address it came in on: nearly every request repeats it,
  // and reading the header again is the costly part of this check.
  let allowed: { host: string; local: string | undefined } | undefined;
  app.addHook('onRequest', (request, _reply, done) => {
    const { host } = request.headers;
    const local = request.socket.localAddress;
    if (host !== undefined && host === allowed?.host && local === allowed.local) done();
    else if (!hostAllowed(hostNameOf(host), names, local)) {
      done(new DioscError('unknown_host', 'This server does not answer to that host name.'));
    } else {
      if (host !== undefined) allowed = { host, local };
      done();
    }
  });
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (BODYLESS.has(request.method) && declaresBody(request.headers)) {
      done(new DioscError('invalid_input', `A ${request.method} request takes no body.`));
    } else done(null, payload);
  });
}
