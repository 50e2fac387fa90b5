import { isPlainObject } from '@diosc/protocol';

/** Either the JSON form of a value or why it has none (said to the developer and the model). */
export type JsonCheck = { ok: true; value: unknown } | { ok: false; reason: string };

function describe(value: unknown): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `the number ${value}`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'bigint') return 'a bigint';
  if (typeof value === 'undefined') return 'undefined';
  if (typeof Node !== 'undefined' && value instanceof Node) return 'a DOM node';
  if (Array.isArray(value) || isPlainObject(value)) return null;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return null;
  return `a ${(value as object).constructor?.name ?? 'non-plain object'}`;
}

/**
 * Checks that a tool's return value is JSON — plain objects, arrays, strings, finite numbers,
 * booleans, null (and `toJSON` values such as dates) — and returns its JSON form. A DOM node, a
 * cycle, a function or a class instance is named, with where it was found, instead of being
 * silently turned into `{}` by `JSON.stringify`.
 */
export function toJsonValue(value: unknown): JsonCheck {
  const seen = new Set<object>();
  const walk = (current: unknown, path: string): string | null => {
    const problem = describe(current);
    if (problem) return `${problem} at ${path}`;
    if (current === null || typeof current !== 'object') return null;
    if (seen.has(current)) return `a cycle at ${path}`;
    if (typeof (current as { toJSON?: unknown }).toJSON === 'function') return null;
    seen.add(current);
    const entries = Array.isArray(current)
      ? current.map((item, index) => [`[${index}]`, item] as const)
      : Object.entries(current)
          .filter(([, item]) => item !== undefined)
          .map(([key, item]) => [`.${key}`, item] as const);
    for (const [key, item] of entries) {
      const found = walk(item, `${path}${key}`);
      if (found) return found;
    }
    seen.delete(current);
    return null;
  };
  const problem = walk(value === undefined ? null : value, 'the result');
  if (problem) return { ok: false, reason: problem };
  return { ok: true, value: JSON.parse(JSON.stringify(value === undefined ? null : value)) };
}

/** Size of a value's JSON in UTF-8 bytes (what the hub's caps count). */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}
