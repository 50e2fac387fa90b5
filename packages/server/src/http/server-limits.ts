import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import { clientErrorHandler } from './client-errors.js';
import type { UnreadBodyDrain } from './unread-body.js';

/**
 * How long the server waits for a client, and how many it holds at once. Without them a client
 * that sends its headers and then a few bytes of a declared body keeps its connection forever
 * (Fastify's default request timeout is none). Documented in docs/architecture.md (HTTP limits).
 */
export interface HttpLimits {
  /** The request line and every header must have arrived within this (Node: `headersTimeout`). */
  headersTimeoutMs: number;
  /** The whole request, body included, must have arrived within this → 408 `request_timeout`. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** How often Node checks the two timeouts above: a stalled request ends within one period. */
  timeoutCheckIntervalMs: number;
  /** Open connections at most; one more is answered 503 `busy` and closed. */
  maxConnections: number;
  /** Open connections from one client address at most; one more is answered 429 `too_many_open`. */
  maxConnectionsPerAddress: number;
  /**
   * Of `maxConnections`, how many visitors (`/api/hub`) can never take: their requests and streams
   * together stop at `maxConnections − reservedConnections`, so the owner API, `/mcp` and
   * `/healthz` keep answering while visitors are at their caps.
   */
  reservedConnections: number;
  /** Open event streams of one visitor session at most → 429 `too_many_open`. */
  visitorStreamsPerSession: number;
  /** Open event streams from one client address (all its visitor sessions) at most. */
  visitorStreamsPerAddress: number;
  /** Other hub requests of one visitor session in flight at once at most. */
  visitorRequestsPerSession: number;
  /** Other hub requests from one client address in flight at once at most (`POST /sessions` too). */
  visitorRequestsPerAddress: number;
  /** An event stream that has sent no event for this long ends cleanly; the kit resumes it. */
  streamIdleMs: number;
  /** The request line and headers together, in bytes → 431 `headers_too_large`. */
  maxHeaderBytes: number;
  /** How much of a refused request's unread body is still read and dropped (see `unread-body.ts`). */
  unreadBodyDrain: UnreadBodyDrain;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 10_000,
  timeoutCheckIntervalMs: 1_000,
  maxConnections: 1_024,
  maxConnectionsPerAddress: 256,
  reservedConnections: 64,
  visitorStreamsPerSession: 4,
  visitorStreamsPerAddress: 64,
  visitorRequestsPerSession: 16,
  visitorRequestsPerAddress: 128,
  streamIdleMs: 5 * 60_000,
  maxHeaderBytes: 16 * 1024,
  unreadBodyDrain: { maxBytes: 16 * 1024 * 1024, maxMs: 10_000 },
};

/** Fastify's constructor options for `limits`, and the handler that answers unreadable requests. */
export function httpServerOptions(limits: HttpLimits): FastifyHttpOptions<Server> {
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
      maxHeaderSize: limits.maxHeaderBytes,
      // Node would answer a missing Host itself (a bare 400); our Host check answers it instead.
      requireHostHeader: false,
    },
    clientErrorHandler,
    // Fastify's own 503 while closing has its own shape; `refuseWhileClosing` answers instead.
    return503OnClosing: false,
  };
}
