import type { ServerConfig } from '../config.js';

/** The names a loopback address answers to; a loopback-bound server accepts each of them. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/** A bare `Host` value: a DNS name, an IPv4 address or a bracketed IPv6 address, and a port. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** The host name of a `Host` header (lower-cased), or undefined when it is not a plain host[:port]. */
export function hostNameOf(header: string | undefined): string | undefined {
  const match = header === undefined ? null : HOST.exec(header.trim());
  return match ? match[1]!.toLowerCase() : undefined;
}

/**
 * The server's own names, which a request's `Host` must name (DNS-rebinding protection: a page on
 * another site that rebinds its name to this address still sends its own name). They are the
 * public origin's host, the extra names an operator lists in `allowedHosts`, and — when the server
 * listens on loopback only — the loopback names, so `http://127.0.0.1:3000` reaches the same
 * server as `http://localhost:3000`. Ports are not compared: rebinding changes the name, and a
 * reverse proxy may forward on another port.
 */
export function ownHostNames(
  config: Pick<ServerConfig, 'host' | 'publicOrigin' | 'allowedHosts'>,
): Set<string> {
  const names = new Set<string>([new URL(config.publicOrigin).hostname.toLowerCase()]);
  for (const name of config.allowedHosts) names.add(name.toLowerCase());
  if (isLoopbackHost(config.host)) for (const name of LOOPBACK_NAMES) names.add(name);
  return names;
}

/**
 * Whether a request naming host `name` (from `hostNameOf`) may be served: one of the server's own
 * names, or a loopback name on a connection that really arrived over loopback — a health check
 * inside a container whose server listens on 0.0.0.0 says `Host: 127.0.0.1`. That is no opening for
 * DNS rebinding: a rebound page's browser sends the page's own name, never a loopback one.
 */
export function hostAllowed(
  name: string | undefined,
  names: ReadonlySet<string>,
  localAddress: string | undefined,
): boolean {
  if (name === undefined) return false;
  if (names.has(name)) return true;
  const local = (localAddress ?? '').replace(/^::ffff:/, '');
  return (LOOPBACK_NAMES as readonly string[]).includes(name) && isLoopbackHost(local);
}

/**
 * The browser origins a loopback-bound server is reached from besides its public origin: each
 * loopback name on each of `ports` (the public origin's and the one the connection came in on).
 * Empty when the server listens beyond loopback.
 */
export function loopbackOrigins(config: Pick<ServerConfig, 'host'>, ports: readonly number[]): string[] {
  if (!isLoopbackHost(config.host)) return [];
  return ports.flatMap((port) => LOOPBACK_NAMES.map((name) => `http://${name}:${port}`));
}
