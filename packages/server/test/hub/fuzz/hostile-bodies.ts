import fc from 'fast-check';

/**
 * Hostile request bodies that do not depend on the route: each class starts from a valid body of
 * the route (as JSON text) and breaks it the way a parser, not a schema, must notice. Nothing here
 * consults the server's validators.
 */
export interface Body {
  body?: string | Buffer;
  headers?: Record<string, string | undefined>;
}

const json = (value: unknown) => JSON.stringify(value);

/** Text that is not one JSON value (truncated, trailing garbage, JavaScript rather than JSON). */
export function malformedJson(valid: unknown): fc.Arbitrary<Body> {
  const text = json(valid);
  return fc
    .oneof(
      fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((cut) => text.slice(0, cut)),
      fc.constantFrom(' x', '}', ',', ']', '{}', '"', '\u0000', 'null').map((tail) => text + tail),
      fc.constantFrom(
        '{',
        '{"a":}',
        "{'text':'hi'}",
        '{text:"hi"}',
        'NaN',
        'undefined',
        '{"a":1,}',
        '[1,2',
        '"unterminated',
        '{"a":1}{"b":2}',
        '{"a":"\\x41"}',
        '{"a":"\\u12"}',
        '{"a":01}',
        '{"a":.5}',
        '{"a":Infinity}',
        '{"a":/re/}',
        '\u0000',
      ),
      fc
        .string({ minLength: 1, maxLength: 200, unit: 'binary' })
        .filter((candidate) => !parses(candidate) && candidate.trim() !== ''),
    )
    .map((body) => ({ body }));
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Byte sequences that are not UTF-8: lone continuation, overlong, surrogates, past U+10FFFF, cut. */
const BAD_UTF8 = [
  [0xff],
  [0xfe],
  [0x80],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xc3],
  [0xe2, 0x82],
];

/** The valid body's bytes with a non-UTF-8 sequence spliced in (inside a string or between tokens). */
export function invalidUtf8(valid: unknown): fc.Arbitrary<Body> {
  const bytes = Buffer.from(json(valid));
  return fc
    .tuple(fc.integer({ min: 1, max: bytes.length - 1 }), fc.constantFrom(...BAD_UTF8), fc.boolean())
    .map(([at, bad, twice]) => ({
      body: Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from(bad),
        twice ? Buffer.from(bad) : Buffer.alloc(0),
        bytes.subarray(at),
      ]),
    }));
}

/** Arrays and objects nested past the parser's bound (64), alone or under a field of the body. */
export function deepNesting(valid: unknown, anyField?: (value: unknown) => unknown): fc.Arbitrary<Body> {
  const marker = '"__deep__"';
  const nested = (depth: number, kind: 'array' | 'object' | 'mixed') =>
    kind === 'array'
      ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
      : kind === 'object'
        ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
        : `${'[{"a":'.repeat(depth)}1${'}]'.repeat(depth)}`;
  const places: ((deep: string) => string)[] = [
    (deep) => deep,
    (deep) => json({ ...(valid as object), extra: '__deep__' }).replace(marker, deep),
  ];
  if (anyField) places.push((deep) => json(anyField('__deep__')).replace(marker, deep));
  return fc
    .tuple(
      fc.integer({ min: 65, max: 5_000 }),
      fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
      fc.constantFrom(...places),
    )
    .map(([depth, kind, place]) => ({
      body: place(nested(kind === 'mixed' ? Math.ceil(depth / 2) : depth, kind)),
    }));
}

/** `__proto__` and `constructor.prototype` keys, at the top or under a field that takes any JSON. */
export function poisonedKeys(valid: unknown, anyField?: (value: unknown) => unknown): fc.Arbitrary<Body> {
  const bases = [valid, ...(anyField ? [anyField({ nested: { deeper: 1 } })] : [])];
  return fc
    .tuple(
      fc.constantFrom(...bases),
      fc.constantFrom('__proto__', 'constructor'),
      fc.jsonValue({ maxDepth: 2 }),
      fc.boolean(),
    )
    .map(([base, key, value, nestedOnly]) => {
      const text = json(base);
      // `constructor` is refused where it carries a `prototype` (what pollutes); alone it is a name.
      const poison =
        key === 'constructor' ? `"constructor":${json({ prototype: value })}` : `"${key}":${json(value)}`;
      const at =
        nestedOnly && text.includes('"deeper":1')
          ? text.replace('"deeper":1', `"deeper":1,${poison}`)
          : text.replace(/^\{/, `{${poison},`);
      return { body: at };
    });
}

/** A body over the route's limit, as one long string field or many small ones. */
export function oversized(limitBytes: number): fc.Arbitrary<Body> {
  return fc.tuple(fc.integer({ min: 1, max: 64 * 1024 }), fc.boolean()).map(([over, many]) => ({
    body: many
      ? `[${'"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",'.repeat(Math.ceil((limitBytes + over) / 33))}1]`
      : json({ text: 'a'.repeat(limitBytes + over) }),
  }));
}

/** The valid body under a media type that is not UTF-8 JSON, or with none at all. */
export function wrongMediaType(valid: unknown): fc.Arbitrary<Body> {
  return fc
    .constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'text/json',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json-patch+json',
      'multipart/form-data; boundary=x',
      undefined,
    )
    .map((type) => ({ body: json(valid), headers: { 'content-type': type } }));
}
