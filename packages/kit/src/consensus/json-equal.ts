import { isObject } from '@diosc/protocol';

/**
 * Whether two JSON values are equal as JSON Schema compares them for `enum`, `const` and
 * `uniqueItems`: by value, whatever the order of an object's keys (`JSON.stringify` is not, which
 * let `{ a, b }` pass `uniqueItems` beside `{ b, a }`).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
}
