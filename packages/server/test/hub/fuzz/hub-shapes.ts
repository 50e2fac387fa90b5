import { PAGE_LIMITS } from '@diosc/protocol';
import fc from 'fast-check';

/**
 * Message shapes that break a rule of the hub's wire schemas, built from valid ones by breaking
 * exactly one thing: page snapshots, registries and intent metadata, interrupt answers, Consensus
 * decisions. Every value here must be refused (each run asserts it).
 */

const json = fc.jsonValue({ maxDepth: 2 });
export const notString = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(json, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 }),
);
export const notObject = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 40 }),
  fc.array(json, { maxLength: 3 }),
);
export const notArray = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 40 }),
  fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 }),
);
export const notBoolean = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 5 }),
  fc.constant(null),
  fc.array(json),
);
/** A key no schema of ours declares. */
export const unknownKey = fc
  .string({ minLength: 1, maxLength: 20 })
  .filter((key) => !['__proto__', 'constructor'].includes(key))
  .map((key) => `zz_${key}`);
/** Text of `length` characters, sometimes multi-byte. */
const longText = (min: number, max: number) =>
  fc.tuple(fc.integer({ min, max }), fc.constantFrom('a', 'é', '😀', '<')).map(([n, c]) => c.repeat(n));
/** Names that break `^[A-Za-z][A-Za-z0-9_-]{0,63}$`. */
export const badToolName = fc.oneof(
  fc.constant(''),
  fc.constantFrom('1abc', '_x', '-x', 'a b', 'a.b', 'a/b', 'é', 'a\u0000', 'read page', 'a'.repeat(65)),
  fc.stringMatching(/^[0-9_-][A-Za-z0-9_-]{0,20}$/),
  notString,
);

export const VALID_SNAPSHOT = { url: 'http://shop.localhost:4173/products/1', title: 'Product 1' };
export const VALID_INTENT = {
  name: 'add_to_cart',
  description: 'Add the product to the cart.',
  schema: { type: 'object', properties: { qty: { type: 'integer' } } },
};
export const VALID_REGISTRY = { tools: ['read_page'], intents: [VALID_INTENT] };

/** Snapshots that are wrong: missing or mistyped fields, over their bounds, unknown fields, oversized data. */
export const poisonedSnapshot: fc.Arbitrary<unknown> = fc.oneof(
  notObject,
  fc.constantFrom({ url: VALID_SNAPSHOT.url }, { title: 'x' }, {}),
  notString.map((url) => ({ ...VALID_SNAPSHOT, url })),
  notString.map((title) => ({ ...VALID_SNAPSHOT, title })),
  notString.map((description) => ({ ...VALID_SNAPSHOT, description })),
  notString.map((content) => ({ ...VALID_SNAPSHOT, content })),
  longText(2_049, 3_000).map((url) => ({ ...VALID_SNAPSHOT, url })),
  longText(513, 900).map((title) => ({ ...VALID_SNAPSHOT, title })),
  longText(PAGE_LIMITS.descriptionMaxChars + 1, 2_000).map((description) => ({
    ...VALID_SNAPSHOT,
    description,
  })),
  longText(PAGE_LIMITS.snapshotContentMaxChars + 1, 25_000).map((content) => ({
    ...VALID_SNAPSHOT,
    content,
  })),
  // Free-form data, but bounded: 16,384 characters as JSON.
  fc
    .integer({ min: PAGE_LIMITS.snapshotDataMaxBytes, max: 200_000 })
    .map((n) => ({ ...VALID_SNAPSHOT, data: { blob: 'd'.repeat(n) } })),
  fc
    // 4,000 numbers below 10,000 are 18,890 bytes of JSON, past the bound.
    .integer({ min: 4_000, max: 9_999 })
    .map((n) => ({ ...VALID_SNAPSHOT, data: Array.from({ length: n }, (_, i) => i % 10_000) })),
  fc.tuple(unknownKey, json).map(([key, value]) => ({ ...VALID_SNAPSHOT, [key]: value })),
);

/** Intent metadata that breaks its schema, or whose `schema` no validator can compile. */
export const badIntent: fc.Arbitrary<unknown> = fc.oneof(
  notObject,
  fc.constantFrom('name', 'description', 'schema').map((drop) => {
    const intent: Record<string, unknown> = { ...VALID_INTENT };
    delete intent[drop];
    return intent;
  }),
  badToolName.map((name) => ({ ...VALID_INTENT, name })),
  fc
    .oneof(fc.constant(''), longText(PAGE_LIMITS.descriptionMaxChars + 1, 2_000), notString)
    .map((description) => ({ ...VALID_INTENT, description })),
  notObject.map((schema) => ({ ...VALID_INTENT, schema })),
  fc
    .constantFrom(
      { type: 'nope' },
      { type: 12 },
      { type: ['object', 'nope'] },
      { properties: 5 },
      { properties: { a: { type: 'nope' } } },
      { required: 'qty' },
      { minLength: -1 },
      { pattern: '(' },
      { $ref: '#/definitions/missing' },
      { items: [1] },
      { enum: [] },
      { additionalProperties: 'no' },
    )
    .map((schema) => ({ ...VALID_INTENT, schema })),
  fc
    .integer({ min: PAGE_LIMITS.schemaMaxBytes, max: 60_000 })
    .map((n) => ({ ...VALID_INTENT, schema: { type: 'object', description: 's'.repeat(n) } })),
  fc
    .oneof(
      notObject,
      fc.constant({}),
      fc.oneof(fc.string({ maxLength: 10 }), notString).map((severity) => ({ severity })),
      fc.tuple(unknownKey, json).map(([key, value]) => ({ severity: 'high', [key]: value })),
    )
    .filter(
      (approval) =>
        !['low', 'medium', 'high'].includes((approval as { severity?: string })?.severity ?? '') ||
        Object.keys(approval as object).length > 1,
    )
    .map((approval) => ({ ...VALID_INTENT, approval })),
  fc.tuple(unknownKey, json).map(([key, value]) => ({ ...VALID_INTENT, [key]: value })),
);

/** Registries that are wrong in their own fields or in one intent. */
export const poisonedRegistry: fc.Arbitrary<unknown> = fc.oneof(
  notObject,
  fc.constantFrom({ tools: [] }, { intents: [] }, {}),
  notArray.map((tools) => ({ ...VALID_REGISTRY, tools })),
  notArray.map((intents) => ({ ...VALID_REGISTRY, intents })),
  badToolName.map((name) => ({ ...VALID_REGISTRY, tools: ['read_page', name] })),
  fc.constant({ ...VALID_REGISTRY, tools: ['read_page', 'read_page'] }),
  fc
    .integer({ min: PAGE_LIMITS.maxTools + 1, max: 200 })
    .map((n) => ({ ...VALID_REGISTRY, tools: Array.from({ length: n }, (_, i) => `tool_${i}`) })),
  fc.integer({ min: PAGE_LIMITS.maxIntents + 1, max: 100 }).map((n) => ({
    tools: [],
    intents: Array.from({ length: n }, (_, i) => ({ ...VALID_INTENT, name: `intent_${i}` })),
  })),
  fc.tuple(badIntent, fc.nat(3)).map(([intent, at]) => ({
    tools: [],
    intents: [...Array.from({ length: at }, (_, i) => ({ ...VALID_INTENT, name: `ok_${i}` })), intent],
  })),
  fc.tuple(unknownKey, json).map(([key, value]) => ({ ...VALID_REGISTRY, [key]: value })),
);

const VALID_FILE = {
  fileId: 'file_0000000000',
  filename: 'a.png',
  format: 'png',
  downloadUrl: '/api/hub/files/file_0000000000',
  sizeBytes: 70,
};

/** A file descriptor in an answer that is malformed, or well-formed but never uploaded for it. */
const badFile: fc.Arbitrary<unknown> = fc.oneof(
  notObject,
  fc.constantFrom('fileId', 'filename', 'format', 'downloadUrl', 'sizeBytes').map((drop) => {
    const file: Record<string, unknown> = { ...VALID_FILE };
    delete file[drop];
    return file;
  }),
  fc.oneof(badToolName, fc.constant('a'.repeat(65))).map((fileId) => ({ ...VALID_FILE, fileId })),
  fc
    .oneof(fc.integer({ max: -1 }), fc.double({ min: 0.1, max: 10, noNaN: true }), fc.string())
    .map((sizeBytes) => ({ ...VALID_FILE, sizeBytes })),
  longText(256, 400).map((filename) => ({ ...VALID_FILE, filename })),
  fc.tuple(unknownKey, json).map(([key, value]) => ({ ...VALID_FILE, [key]: value })),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/).map((fileId) => ({ ...VALID_FILE, fileId })),
);

const badDecisionReport: fc.Arbitrary<unknown> = fc.oneof(
  notObject,
  fc.constant({}),
  fc
    .oneof(fc.string({ maxLength: 10 }), notString)
    .filter((d) => !['approve', 'edit', 'reject'].includes(d as string))
    .map((decision) => ({ decision })),
  notArray.map((changed) => ({ decision: 'edit', changed })),
  fc
    .integer({ min: 65, max: 100 })
    .map((n) => ({ decision: 'edit', changed: Array.from({ length: n }, () => 'k') })),
  longText(129, 200).map((key) => ({ decision: 'edit', changed: [key] })),
  longText(1_001, 1_500).map((reason) => ({ decision: 'reject', reason })),
  fc.tuple(unknownKey, json).map(([key, value]) => ({ decision: 'approve', [key]: value })),
);

/** Interrupt answers the hub must refuse. */
export const badAnswer: fc.Arbitrary<unknown> = fc.oneof(
  notObject,
  fc.tuple(json, fc.string({ maxLength: 20 })).map(([result, error]) => ({ result, error })),
  fc.constantFrom({}, { uncertain: true }, { snapshot: VALID_SNAPSHOT }, { registry: VALID_REGISTRY }),
  notString.map((error) => ({ error })),
  longText(4_001, 5_000).map((error) => ({ error })),
  notBoolean.map((uncertain) => ({ result: 1, uncertain })),
  poisonedSnapshot.map((snapshot) => ({ result: { ok: true }, snapshot })),
  poisonedRegistry.map((registry) => ({ result: { ok: true }, registry })),
  badFile.map((file) => ({ result: { ok: true }, file })),
  badDecisionReport.map((decision) => ({ result: { ok: true }, decision })),
  fc.tuple(unknownKey, json).map(([key, value]) => ({ result: 1, [key]: value })),
);

const DIGEST = /^[0-9a-f]{64}$/;
/** Decisions that break the schema, or name a digest that is not the one under review. */
export function badDecision(argsDigest: string): fc.Arbitrary<unknown> {
  const hex64 = fc.stringMatching(DIGEST).filter((digest) => digest !== argsDigest);
  const decision = fc.constantFrom('approve', 'edit', 'reject');
  return fc.oneof(
    notObject,
    fc.constantFrom({}, { decision: 'approve' }, { argsDigest }),
    fc
      .oneof(fc.string({ maxLength: 10 }), notString)
      .filter((d) => !['approve', 'edit', 'reject'].includes(d as string))
      .map((value) => ({ decision: value, argsDigest })),
    fc
      .oneof(
        fc.string({ maxLength: 70 }),
        notString,
        fc.constant(argsDigest.toUpperCase()),
        fc.constant(`${argsDigest}0`),
      )
      .filter((digest) => typeof digest !== 'string' || !DIGEST.test(digest))
      .map((digest) => ({ decision: 'approve', argsDigest: digest })),
    notObject.map((args) => ({ decision: 'edit', argsDigest, args })),
    longText(1_001, 1_500).map((reason) => ({ decision: 'reject', argsDigest, reason })),
    fc.tuple(unknownKey, json).map(([key, value]) => ({ decision: 'approve', argsDigest, [key]: value })),
    // Well-formed, but for other arguments than the ones under review.
    fc.tuple(decision, hex64).map(([value, digest]) => ({ decision: value, argsDigest: digest })),
    // The right digest with fields its decision does not take, or edited arguments the tool refuses.
    fc
      .dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 })
      .map((args) => ({ decision: 'approve', argsDigest, args })),
    fc.string({ maxLength: 50 }).map((reason) => ({ decision: 'approve', argsDigest, reason })),
    fc.constant({ decision: 'edit', argsDigest }),
    fc
      .dictionary(unknownKey, json, { minKeys: 1, maxKeys: 3 })
      .map((args) => ({ decision: 'edit', argsDigest, args })),
    fc
      .dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 })
      .map((args) => ({ decision: 'reject', argsDigest, args })),
  );
}

/** Message bodies the hub must refuse, built on a valid `{ text, snapshot, registry }`. */
export const badMessage: fc.Arbitrary<unknown> = fc.oneof(
  notObject,
  fc.constant({ snapshot: VALID_SNAPSHOT }),
  notString.map((text) => ({ text })),
  longText(16_001, 20_000).map((text) => ({ text })),
  fc.constantFrom('', ' ', '\n\t ').map((text) => ({ text })),
  poisonedSnapshot.map((snapshot) => ({ text: 'hi', snapshot, registry: VALID_REGISTRY })),
  poisonedRegistry.map((registry) => ({ text: 'hi', snapshot: VALID_SNAPSHOT, registry })),
  notArray.map((attachments) => ({ text: 'hi', attachments })),
  fc
    .oneof(badToolName, fc.constant('x'.repeat(65)))
    .filter((id) => typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(id))
    .map((id) => ({ text: 'hi', attachments: [id] })),
  fc
    .integer({ min: 11, max: 30 })
    .map((n) => ({ text: 'hi', attachments: Array.from({ length: n }, (_, i) => `f${i}`) })),
  fc.constant({ text: 'hi', attachments: ['f1', 'f1'] }),
  // Well-formed ids of files that do not exist (or are not this conversation's).
  fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), { minLength: 1, maxLength: 3 }).map((attachments) => ({
    text: 'hi',
    attachments: [...new Set(attachments)],
  })),
  fc.tuple(unknownKey, json).map(([key, value]) => ({ text: 'hi', [key]: value })),
);
