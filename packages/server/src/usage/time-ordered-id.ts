import { randomUUID } from 'node:crypto';

/**
 * A UUID version 7 (RFC 9562 §5.7): 48 bits of Unix milliseconds, then random bits. Usage rows are
 * keyed by it rather than by a random UUID so that each insert lands at the end of the primary-key
 * index instead of on a random page of it: a batch of rows then dirties a page or two, not one page
 * per row (which the WAL then carries and a checkpoint copies back). Made from a random v4 UUID
 * (Node draws those from a buffered entropy pool, far cheaper than a fresh random draw per id):
 * the first 48 bits become the time and the version digit 7; the variant bits stay RFC 9562's.
 */
export function timeOrderedId(now: number): string {
  const random = randomUUID();
  const time = (Math.max(0, Math.floor(now)) % 2 ** 48).toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15)}`;
}
