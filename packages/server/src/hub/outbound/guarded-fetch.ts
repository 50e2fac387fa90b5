import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { DioscError } from '@diosc/protocol';
import { Agent, fetch as undiciFetch } from 'undici';
import { isPublicAddress } from './public-address.js';

/**
 * Fetches for URLs an owner typed (a sitemap.xml to import, an MCP server to check or to use in a
 * turn, an assistant's own model base URL), made safe
 * against server-side request forgery: http and https only, no credentials in the URL, and — unless
 * the operator allows private addresses — no connection to a loopback, private, link-local or
 * otherwise non-public address. The check runs in the connection's own DNS lookup, so the address
 * that was checked is the address connected to (a DNS answer that changes between a check and the
 * connection — rebinding — cannot slip past), and redirects are followed by hand, each one checked.
 */
export interface OutboundPolicy {
  /** Allow loopback and private addresses (`DIOSC_HUB_FETCH_PRIVATE=1`; tests on loopback). */
  allowPrivate: boolean;
  /** Test seam: the name resolver (default `dns.lookup`), asked afresh for every new connection. */
  lookup?: OutboundLookup | undefined;
  /** Test seam: which resolved addresses count as public (default `isPublicAddress`). */
  isPublic?: ((address: string) => boolean) | undefined;
}

/** `dns.lookup` with `all: true`: every address of a name. */
export type OutboundLookup = (
  hostname: string,
  options: { family: number; all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export type GuardedFetch = ((url: string | URL, init?: RequestInit) => Promise<Response>) & {
  /** The same checks as a fetch makes before connecting (scheme, credentials, address literal). */
  check(url: string | URL): URL;
};

const MAX_REDIRECTS = 3;

function refused(message: string): DioscError {
  return new DioscError('fetch_refused', message);
}

/** Refuses a URL before any connection: its scheme, its credentials, an address literal. */
export function checkOutboundUrl(raw: string | URL, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new DioscError('invalid_input', 'That is not a URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused('Only http and https URLs are fetched.');
  if (url.username || url.password) throw refused('A URL with a user name or password is not fetched.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowPrivate && isIP(host) !== 0 && !(policy.isPublic ?? isPublicAddress)(host))
    throw refused('That address is not on the public internet, so the server does not fetch it.');
  return url;
}

/**
 * The lookup the connection makes (`net.connect`'s `lookup` option): every address the name
 * resolves to is checked, and the socket gets the first, or all when it asks for all (Happy
 * Eyeballs). Exported for its tests; connections get it through `createGuardedFetch`.
 */
export function guardedLookup(policy: OutboundPolicy) {
  const resolve: OutboundLookup = policy.lookup ?? (dnsLookup as unknown as OutboundLookup);
  const isPublic = policy.isPublic ?? isPublicAddress;
  return (
    hostname: string,
    options: { all?: boolean; family?: number } | number,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const wanted = typeof options === 'number' ? { family: options } : options;
    resolve(hostname, { family: wanted.family ?? 0, all: true }, (error, list) => {
      if (error) return callback(error, []);
      if (!policy.allowPrivate && list.some((entry) => !isPublic(entry.address))) {
        return callback(refused(`${hostname.slice(0, 100)} resolves to an address that is not public.`), []);
      }
      if (wanted.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address.`), []);
      return callback(null, first.address, first.family);
    });
  };
}

/** The cause chain of a fetch failure, searched for our own refusal (raised inside the lookup). */
function refusalIn(error: unknown): DioscError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof DioscError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A fetch with the policy: use it for every request to an owner-given URL. */
export function createGuardedFetch(policy: OutboundPolicy): GuardedFetch {
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(policy) as never } });
  const guardedFetch = async (raw: string | URL, init: RequestInit = {}): Promise<Response> => {
    let url = checkOutboundUrl(raw, policy);
    for (let hop = 0; ; hop++) {
      let response: Response;
      try {
        response = (await undiciFetch(url, {
          ...(init as object),
          redirect: 'manual',
          dispatcher,
        } as never)) as unknown as Response;
      } catch (error) {
        throw refusalIn(error) ?? error;
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || !location) return response;
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new DioscError('fetch_failed', 'The URL redirects too many times.');
      // The target is checked first, so a redirect toward this machine is refused as such.
      let target: URL;
      try {
        target = new URL(location, url);
      } catch {
        throw new DioscError('fetch_failed', 'The server redirected to something that is not a URL.');
      }
      const next = checkOutboundUrl(target, policy);
      // A redirect is followed only for reads; a POST is not replayed to another place.
      if ((init.method ?? 'GET').toUpperCase() !== 'GET')
        throw new DioscError('fetch_failed', 'The server answered with a redirect.');
      url = next;
    }
  };
  return Object.assign(guardedFetch, { check: (url: string | URL) => checkOutboundUrl(url, policy) });
}
