/**
 * JSON with object keys sorted at every depth, so equal values always serialize alike — what a
 * digest or an equality check of two inputs is taken over. Keys are copied as data (a key named
 * `__proto__` stays a key), and `toJSON` applies as in `JSON.stringify`.
 *
 * @example canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }) === '{"a":[{"c":3,"d":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (!inner || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const record = inner as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    );
  });
}
