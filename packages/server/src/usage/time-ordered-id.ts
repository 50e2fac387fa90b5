import { randomFillSync } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562 §5.7): 48 bits of Unix milliseconds, then random bits. Usage rows are
 * keyed by it rather than by a random UUID so that each insert lands at the end of the primary-key
 * index instead of on a random page of it: a batch of rows then dirties a page or two, not one page
 * per row (which the WAL then carries and a checkpoint copies back). Still opaque and unguessable
 * enough for an identifier that grants nothing.
 */
export function timeOrderedId(now: number): string {
  const bytes = randomFillSync(Buffer.alloc(16));
  bytes.writeUIntBE(Math.max(0, Math.floor(now)) % 2 ** 48, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
