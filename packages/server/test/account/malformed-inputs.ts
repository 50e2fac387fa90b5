import { CONTENT_MAX_CHARS, type FunctionName } from '@diosc/protocol';
import fc from 'fast-check';

/**
 * Inputs that are malformed by construction: each takes a valid input of one shape (a storage
 * create, a storage replace, an inbox edit, …) and breaks exactly one rule of it (or is not an object
 * at all). Nothing here consults the validator under test.
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
/** Not a list: an empty list or one of valid labels would be a valid `labels`. */
const notArray = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 50 }),
  fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 }),
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
  fc.oneof(notArray, fc.array(badLabel, { minLength: 1, maxLength: 3 })).map((labels) => ({ labels })),
  fc.constant({ labels: ['same', 'same'] }),
  fc.array(alnum(1, 8), { minLength: 21, maxLength: 25 }).map((labels) => ({ labels })),
  // Body and sender are never writable, whatever the shape.
  fc
    .constantFrom('body', 'from', 'receivedAt', 'content', 'title')
    .chain((key) => json.map((v) => ({ read: true, [key]: v }))),
);

/**
 * One valid input of a function, with the ways to break it. Each mutation of a base changes one
 * thing, so the rule that refuses it is the rule for that thing: a wrong `ifMatch` is tried on a
 * replace (where it is allowed), wrong `metadata` on an inbox edit (where it is the change), never
 * on a create that the cross-field rule would refuse whatever their value.
 */
export interface Shape {
  /** What this base is, for the test names (`storage replace`). */
  label: string;
  valid: Record<string, unknown>;
  /** Properties this base cannot do without (the schema's, and the ones its kind rule needs). */
  required: string[];
  /** A wrong value for each property the base has (or may have). */
  wrong: Record<string, fc.Arbitrary<unknown>>;
  /** Whole inputs that break a cross-field rule and nothing else. */
  combos?: fc.Arbitrary<unknown>[];
}

const CREATE = {
  collection: 'notes',
  item: 'fresh',
  requestId: 'req-valid-create',
  ifNoneMatch: '*',
  content: { body: 'x' },
};
/** The seeded note `groceries` is at version 1. */
const REPLACE = {
  collection: 'notes',
  item: 'groceries',
  requestId: 'req-valid-replace',
  ifMatch: '1',
  content: { body: 'y' },
};
/** The seeded message `welcome` is at version 1. */
const METADATA_EDIT = {
  collection: 'inbox',
  item: 'welcome',
  requestId: 'req-valid-metadata',
  ifMatch: '1',
  metadata: { read: true },
};
const badIfNoneMatch = fc.oneof(
  fc.string({ maxLength: 5 }).filter((s) => s !== '*'),
  notString,
);
const target = { collection: badId, item: badId, requestId: badRequestId };

export const SHAPES: Record<FunctionName, Shape[]> = {
  collections_list: [
    { label: 'first page', valid: {}, required: [], wrong: { cursor: badCursor, limit: badLimit } },
  ],
  items_list: [
    {
      label: 'a storage collection',
      valid: { collection: 'notes' },
      required: ['collection'],
      wrong: { collection: badId, cursor: badCursor, limit: badLimit },
    },
  ],
  item_read: [
    {
      label: 'a note',
      valid: { collection: 'notes', item: 'groceries' },
      required: ['collection', 'item'],
      wrong: { collection: badId, item: badId },
    },
  ],
  item_write: [
    {
      label: 'storage create',
      valid: CREATE,
      required: ['collection', 'item', 'requestId', 'ifNoneMatch', 'content'],
      wrong: { ...target, ifNoneMatch: badIfNoneMatch, content: badContent },
      combos: [
        // Both preconditions; both content and metadata.
        fc.constant({ ...CREATE, ifMatch: '1' }),
        fc.constant({ ...CREATE, metadata: { read: true } }),
      ],
    },
    {
      label: 'storage replace',
      valid: REPLACE,
      required: ['collection', 'item', 'requestId', 'ifMatch', 'content'],
      wrong: { ...target, ifMatch: badVersion, content: badContent },
      combos: [
        fc.constant({ ...REPLACE, ifNoneMatch: '*' }),
        fc.constant({ ...REPLACE, metadata: { read: true } }),
      ],
    },
    {
      label: 'inbox metadata edit',
      valid: METADATA_EDIT,
      required: ['collection', 'item', 'requestId', 'metadata'],
      wrong: { ...target, ifMatch: badVersion, metadata: badMetadata },
      combos: [fc.constant({ ...METADATA_EDIT, ifNoneMatch: '*' })],
    },
  ],
  item_delete: [
    {
      label: 'a note',
      valid: { collection: 'notes', item: 'groceries', requestId: 'req-valid-delete', ifMatch: '1' },
      required: ['collection', 'item', 'requestId', 'ifMatch'],
      wrong: { ...target, ifMatch: badVersion },
    },
  ],
};

/** Every property some schema declares: an "unknown property" is none of these. */
const SCHEMA_KEYS = new Set(
  Object.values(SHAPES).flatMap((shapes) => shapes.flatMap((shape) => Object.keys(shape.wrong))),
);

function without(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

/** One way of breaking a base: the class the "nothing written" check is made for. */
export interface MalformedClass {
  label: string;
  inputs: fc.Arbitrary<unknown>;
  /** Set for a class of one fixed input: it is tried once, not a thousand times. */
  fixed?: true;
}

/**
 * Every way the generator breaks a base, one class per rule: not an object; a wrong value of each
 * property; an unknown property; each required property missing; each cross-field combination.
 */
export function malformedClasses(shape: Shape): MalformedClass[] {
  const known = SCHEMA_KEYS;
  return [
    { label: 'not an object', inputs: fc.oneof(notObject, fc.constant(undefined)) },
    ...Object.entries(shape.wrong).map(([key, wrong]) => ({
      label: `wrong ${key}`,
      inputs: wrong.map((value) => ({ ...shape.valid, [key]: value })),
    })),
    {
      label: 'an unknown property',
      inputs: fc
        .tuple(
          fc.string({ maxLength: 20 }).filter((key) => !known.has(key)),
          extraValue,
        )
        .map(([key, value]) => ({ ...shape.valid, [key]: value })),
    },
    ...shape.required.map((key) => ({
      label: `without ${key}`,
      inputs: fc.constant(without(shape.valid, key)),
      fixed: true as const,
    })),
    ...(shape.combos ?? []).map((combo, index) => ({
      label: `cross-field rule ${index + 1}`,
      inputs: combo,
      fixed: true as const,
    })),
  ];
}
