import { BlockList, isIP } from 'node:net';

/**
 * Addresses that are not the public internet: loopback, private (RFC 1918, ULA), link-local
 * (cloud metadata lives at 169.254.169.254), carrier-grade NAT, multicast, documentation and
 * reserved ranges. A server that fetches a URL an owner typed must not reach these by default.
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
// IPv4-mapped addresses (`::ffff:127.0.0.1`, `::ffff:7f00:1`) need no rule of their own: BlockList
// judges them by the IPv4 rules above. The deprecated IPv4-compatible ones (`::127.0.0.1`, `::a00:1`)
// it does not, so all of `::/96` is refused (the unspecified address `::` with it).
for (const [network, prefix] of [
  ['::', 96],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** True for an IP address on the public internet; false for any other, or for a non-address. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
}
