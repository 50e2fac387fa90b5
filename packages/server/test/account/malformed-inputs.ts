import { CONTENT_MAX_CHARS, type FunctionName } from '@diosc/protocol';
import fc from 'fast-check';

/**
 * Inputs that are malformed by construction: each takes a valid input and breaks exactly one rule
 * of its schema (or is not an object at all). Nothing here consults the validator under test.
 */

const json = fc.jsonValue({ maxDepth: 3 });
const notString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(json, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 }),
);
const notObject = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 50 }),
  fc.array(json, { maxLength: 3 }),
);
const notBoolean = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 5 }),
  fc.constant(null),
  fc.array(json, { maxLength: 2 }),
);
const alnum = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`));
const withBadChar = (chars: string[]) =>
  fc
    .tuple(alnum(1, 10), fc.constantFrom(...chars), fc.string({ maxLength: 10 }))
    .map(([head, bad, tail]) => head + bad + tail);

/** Not an ID: empty, too long, a bad first character, a character outside [A-Za-z0-9._-], or not a string. */
const badId = fc.oneof(
  fc.constant(''),
  alnum(129, 400),
  fc.constant('a'.repeat(1_000_000)),
  fc.tuple(fc.constantFrom('.', '-', '_', ' ', '/'), alnum(0, 20)).map(([a, b]) => a + b),
  withBadChar(['/', ' ', '\n', '<', '>', '"', '\\', '😀', 'é', '\u0000', '%', '?', '#', '*', ':', '@', '+']),
  notString,
);
const badRequestId = fc.oneof(
  alnum(1, 7),
  alnum(129, 400),
  fc.tuple(fc.constantFrom('.', '-', ':', '_'), alnum(7, 20)).map(([a, b]) => a + b),
  withBadChar(['/', ' ', '\n', '<', '>', '"', '😀', 'é', '\u0000', '%', '?', '#', '*', '@', '+']).map((s) =>
    s.padEnd(8, 'x'),
  ),
  notString,
);
const badCursor = fc.oneof(
  fc.constant(''),
  fc.string({ minLength: 513, maxLength: 1200 }),
  notString,
  // Well-formed strings that this server never issued.
  fc.string({ minLength: 1, maxLength: 40 }),
);
const badLimit = fc.oneof(
  fc.integer({ max: 0 }),
  fc.integer({ min: 101 }),
  fc.double().filter((n) => !Number.isInteger(n)),
  fc.string({ maxLength: 5 }),
  fc.constant(null),
  fc.boolean(),
);
const badVersion = fc.oneof(fc.constant(''), fc.string({ minLength: 65, maxLength: 200 }), notString);
const extraValue = fc.anything({ maxDepth: 3 });

const badContent = fc.oneof(
  notObject,
  fc.constant({}),
  fc.constant({ body: 'x'.repeat(CONTENT_MAX_CHARS + 1) }),
  notString.map((body) => ({ body })),
  fc
    .oneof(fc.constant(''), fc.string({ minLength: 201, maxLength: 400 }), notString)
    .map((title) => ({ body: 'x', title })),
  fc.oneof(fc.string({ maxLength: 20 }), notString).map((contentType) => ({ body: 'x', contentType })),
  fc
    .tuple(
      fc.string({ maxLength: 10 }).filter((k) => !['body', 'title', 'contentType'].includes(k)),
      extraValue,
    )
    .map(([key, value]) => ({ body: 'x', [key]: value })),
);
const badLabel = fc.oneof(
  fc.constant(''),
  alnum(41, 80),
  withBadChar(['/', '<', '>', '"', '😀', '\n', ',', ':', '#']),
  notString,
);
const badMetadata = fc.oneof(
  notObject,
  fc.constant({}),
  fc.constantFrom('read', 'flagged', 'archived').chain((key) => notBoolean.map((v) => ({ [key]: v }))),
  fc.oneof(notObject, fc.array(badLabel, { minLength: 1, maxLength: 3 })).map((labels) => ({ labels })),
  fc.constant({ labels: ['same', 'same'] }),
  fc.array(alnum(1, 8), { minLength: 21, maxLength: 25 }).map((labels) => ({ labels })),
  // Body and sender are never writable, whatever the shape.
  fc
    .constantFrom('body', 'from', 'receivedAt', 'content', 'title')
    .chain((key) => json.map((v) => ({ read: true, [key]: v }))),
);

interface Shape {
  valid: Record<string, unknown>;
  required: string[];
  /** A wrong value for each property the schema declares. */
  wrong: Record<string, fc.Arbitrary<unknown>>;
  /** Whole inputs that break a cross-field rule. */
  combos?: fc.Arbitrary<unknown>[];
}

const VALID_WRITE = {
  collection: 'notes',
  item: 'fresh',
  requestId: 'req-valid-write',
  ifNoneMatch: '*',
  content: { body: 'x' },
};

export const SHAPES: Record<FunctionName, Shape> = {
  collections_list: { valid: {}, required: [], wrong: { cursor: badCursor, limit: badLimit } },
  items_list: {
    valid: { collection: 'notes' },
    required: ['collection'],
    wrong: { collection: badId, cursor: badCursor, limit: badLimit },
  },
  item_read: {
    valid: { collection: 'notes', item: 'groceries' },
    required: ['collection', 'item'],
    wrong: { collection: badId, item: badId },
  },
  item_write: {
    valid: VALID_WRITE,
    required: ['collection', 'item', 'requestId'],
    wrong: {
      collection: badId,
      item: badId,
      requestId: badRequestId,
      ifMatch: badVersion,
      ifNoneMatch: fc.oneof(
        fc.string({ maxLength: 5 }).filter((s) => s !== '*'),
        notString,
      ),
      content: badContent,
      metadata: badMetadata,
    },
    combos: [
      // Both or neither of content and metadata; both preconditions.
      fc.constant({ ...VALID_WRITE, metadata: { read: true } }),
      fc.constant({ collection: 'notes', item: 'fresh', requestId: 'req-valid-write', ifNoneMatch: '*' }),
      fc.constant({ ...VALID_WRITE, ifMatch: '1' }),
      // Storage writes without a condition.
      fc.constant({
        collection: 'notes',
        item: 'fresh',
        requestId: 'req-valid-write',
        content: { body: 'x' },
      }),
    ],
  },
  item_delete: {
    valid: { collection: 'notes', item: 'groceries', requestId: 'req-valid-delete', ifMatch: '1' },
    required: ['collection', 'item', 'requestId', 'ifMatch'],
    wrong: { collection: badId, item: badId, requestId: badRequestId, ifMatch: badVersion },
  },
};

function without(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/** Every way the generator breaks an input of `name`. */
export function malformedInput(name: FunctionName): fc.Arbitrary<unknown> {
  const shape = SHAPES[name];
  const known = new Set(Object.keys(shape.wrong));
  const strategies: fc.WeightedArbitrary<unknown>[] = [
    { arbitrary: fc.oneof(notObject, fc.constant(undefined)), weight: 1 },
    {
      arbitrary: fc
        .constantFrom(...Object.keys(shape.wrong))
        .chain((key) => shape.wrong[key]!.map((value) => ({ ...shape.valid, [key]: value }))),
      weight: 4,
    },
    {
      arbitrary: fc
        .tuple(
          fc.string({ maxLength: 20 }).filter((key) => !known.has(key)),
          extraValue,
        )
        .map(([key, value]) => ({ ...shape.valid, [key]: value })),
      weight: 1,
    },
  ];
  if (shape.required.length > 0) {
    strategies.push({
      arbitrary: fc.constantFrom(...shape.required).map((key) => without(shape.valid, key)),
      weight: 1,
    });
  }
  if (shape.combos) strategies.push({ arbitrary: fc.oneof(...shape.combos), weight: 1 });
  return fc.oneof(...strategies);
}
