import { DioscError } from '@diosc/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config.js';
import type { Connections } from '../connections/connections.js';
import { createStoredGrants, type StoredGrant } from '../connections/stored-grant.js';
import { loopbackOrigins } from '../http/host-names.js';
import type { PerMinuteLimit } from '../limits/per-minute-limit.js';

/** Who is calling `/mcp`: the live connection its bearer token names, read on this request. */
export interface McpPrincipal {
  connectionId: string;
  accountId: string;
  /** The grant as stored right now (read on this request, parsed once per distinct grant). */
  grant: StoredGrant;
  lastUsedAt: number | null;
  /** The store's change counter as read when this request was authenticated (`Store.dataVersion`). */
  dataVersion: number | undefined;
}

const REALM = 'Bearer realm="diosc"';
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i;
const QUERY_CREDENTIALS = new Set(['access_token', 'token']);

/**
 * The checks every `/mcp` request passes before anything else runs (body parsing included):
 * no credential in the URL, an allowed Origin if one is present, a live bearer token, then the
 * connection's request rate.
 * Cookies are never read here, so a portal session can never act on this endpoint.
 */
export function createMcpGuard(deps: {
  config: ServerConfig;
  connections: Pick<Connections, 'findByToken'>;
  /** The store's change counter, read once per request and reused by its lookups (`Store.dataVersion`). */
  dataVersion?: () => number;
  /** Requests per connection (`rate_limited` once over). */
  requests: Pick<PerMinuteLimit, 'take'>;
}) {
  const allowedOrigins = new Set([deps.config.publicOrigin, ...deps.config.mcpAllowedOrigins]);
  const publicPort = Number(new URL(deps.config.publicOrigin).port || 80);
  // A loopback-bound server is one machine's own: its loopback names on its own ports are its
  // origins too (what a local client such as the MCP Inspector's browser sends). Other origins stay
  // refused, whatever their Host.
  const loopback = (port: number | undefined) =>
    loopbackOrigins(deps.config, port === undefined ? [publicPort] : [publicPort, port]);

  const grants = createStoredGrants();

  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const query = request.url.indexOf('?');
    if (query !== -1) {
      for (const name of new URLSearchParams(request.url.slice(query + 1)).keys()) {
        if (QUERY_CREDENTIALS.has(name.toLowerCase())) {
          reply.header('www-authenticate', `${REALM}, error="invalid_request"`);
          throw new DioscError(
            'invalid_input',
            'Tokens are accepted only in the Authorization header, never in the URL.',
          );
        }
      }
    }

    // DNS-rebinding protection (with the Host check every request passed already, see
    // http/request-guards.ts): a browser always sends Origin; other clients may omit it.
    const origin = request.headers.origin;
    if (
      origin !== undefined &&
      !allowedOrigins.has(origin) &&
      !loopback(request.socket.localPort).includes(origin)
    ) {
      throw new DioscError('forbidden_origin', 'This origin may not call /mcp.');
    }

    const header = request.headers.authorization;
    const match = header === undefined ? null : BEARER.exec(header);
    if (!match) {
      // RFC 6750 §3.1: a request without a bearer credential gets the challenge without an error code.
      reply.header('www-authenticate', REALM);
      throw new DioscError(
        'unauthenticated',
        'Send the connection token as "Authorization: Bearer" followed by the token.',
      );
    }
    // Read once, here at the start of the call; the call's collection lookup reuses it.
    const dataVersion = deps.dataVersion?.();
    const found = deps.connections.findByToken(match[1]!, dataVersion);
    // No await when the answer is there already: an await costs more than the lookup.
    const row = found instanceof Promise ? await found : found;
    if (!row) {
      reply.header('www-authenticate', `${REALM}, error="invalid_token"`);
      throw new DioscError('unauthenticated', 'The bearer token is invalid, expired or revoked.');
    }
    deps.requests.take(row.id);
    request.mcpPrincipal = {
      connectionId: row.id,
      accountId: row.account_id,
      grant: grants.parse(row.grant_json),
      lastUsedAt: row.last_used_at,
      dataVersion,
    };
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    mcpPrincipal: McpPrincipal | null;
  }
}
