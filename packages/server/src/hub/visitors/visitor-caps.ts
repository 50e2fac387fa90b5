import { DioscError } from '@diosc/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HttpLimits } from '../../http/server-limits.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route holds its request open as an event stream: it counts against the stream caps. */
    visitorStream?: boolean;
  }
}

/** The limits this module enforces (all in `HttpLimits`, documented in docs/hub.md "Visitor caps"). */
export type VisitorCapLimits = Pick<
  HttpLimits,
  | 'maxConnections'
  | 'reservedConnections'
  | 'visitorStreamsPerSession'
  | 'visitorStreamsPerAddress'
  | 'visitorRequestsPerSession'
  | 'visitorRequestsPerAddress'
>;

type Kind = 'stream' | 'request';

function counts() {
  const held = new Map<string, number>();
  return {
    of: (key: string) => held.get(key) ?? 0,
    add(key: string, delta: number) {
      const next = (held.get(key) ?? 0) + delta;
      if (next <= 0) held.delete(key);
      else held.set(key, next);
    },
  };
}

const kindOf = (request: FastifyRequest): Kind =>
  request.routeOptions.config?.visitorStream === true ? 'stream' : 'request';

/** Releases once, when the response is over: finished, or its connection gone (a dropped stream). */
function onOver(reply: FastifyReply, release: () => void): void {
  let released = false;
  reply.raw.once('close', () => {
    if (released) return;
    released = true;
    release();
  });
}

/**
 * What one visitor can hold at once on `/api/hub`: open event streams and requests in flight, per
 * visitor session and per client address, and all visitors together at most `maxConnections −
 * reservedConnections` — the rest stays for the owner API, `/mcp` and `/healthz`, which visitors
 * cannot take. A request over a cap gets the 429 `too_many_open` these return, before it does any work, and
 * nothing else notices. Counts live in this app instance (per process), never in a module global.
 */
export function createVisitorCaps(limits: VisitorCapLimits) {
  const share = Math.max(0, limits.maxConnections - limits.reservedConnections);
  const perAddress = { stream: counts(), request: counts() };
  const perSession = { stream: counts(), request: counts() };
  let total = 0;
  const max = {
    address: { stream: limits.visitorStreamsPerAddress, request: limits.visitorRequestsPerAddress },
    session: { stream: limits.visitorStreamsPerSession, request: limits.visitorRequestsPerSession },
  };
  const noun = (kind: Kind) => (kind === 'stream' ? 'open event streams' : 'requests in flight');

  return {
    /** `onRequest` of the hub: the client address's cap and the visitors' share, before anything runs. */
    admitAddress(request: FastifyRequest, reply: FastifyReply): DioscError | undefined {
      const kind = kindOf(request);
      const address = request.ip;
      if (total >= share) {
        return new DioscError(
          'too_many_open',
          'Visitors hold every connection this server gives them; retry shortly.',
          { retryAfterMs: 1_000 },
        );
      }
      if (perAddress[kind].of(address) >= max.address[kind]) {
        return new DioscError(
          'too_many_open',
          `This address already has ${max.address[kind]} ${noun(kind)}, the most it may hold; close one or retry shortly.`,
          { retryAfterMs: 1_000 },
        );
      }
      total++;
      perAddress[kind].add(address, 1);
      onOver(reply, () => {
        total--;
        perAddress[kind].add(address, -1);
      });
      return undefined;
    },

    /** `preHandler` after the visitor is authenticated: the session's own cap. */
    admitSession(request: FastifyRequest, reply: FastifyReply): DioscError | undefined {
      const kind = kindOf(request);
      const session = request.visitor!.id;
      if (perSession[kind].of(session) >= max.session[kind]) {
        return new DioscError(
          'too_many_open',
          `This visitor session already has ${max.session[kind]} ${noun(kind)}, the most it may hold; close one or retry shortly.`,
          { retryAfterMs: 1_000 },
        );
      }
      perSession[kind].add(session, 1);
      onOver(reply, () => perSession[kind].add(session, -1));
      return undefined;
    },
  };
}

export type VisitorCaps = ReturnType<typeof createVisitorCaps>;
