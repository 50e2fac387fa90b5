import { NUMBER_FORMAT_TESTS, STRING_FORMAT_PATTERNS } from '@diosc/protocol';
import { compileToolSchema } from '@diosc/protocol/validators';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSchema } from '../src/consensus/schema-check.js';

/*
 * The kit's check of edited arguments is the only check before an intent's handler runs on them, so
 * it is held to the hub's verdict: the hub's own Ajv (`compileToolSchema`) decides, over generated
 * draft-07 schemas that use every keyword the kit supports, and values drawn from the same small
 * domains so that boundaries are hit often.
 */

const KEYS = ['a', 'b', 'c'] as const;
const NUMBERS = [-2, -1, -0.5, 0, 0.1, 0.2, 0.3, 0.5, 1, 1.5, 2, 3, 4, 6, 10];
const PATTERNS = ['^a', 'b$', '^[ab]*$', '😀', '^.{2}$', 'a|c'];
const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'] as const;

const key = fc.constantFrom(...KEYS);
const number = fc.constantFrom(...NUMBERS);
const count = fc.integer({ min: 0, max: 3 });
/** Short strings, and one of each format's shape now and then, so `format` is seen both ways. */
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', 'c', '😀'), maxLength: 4 }),
  fc.constantFrom(
    '2026-12-03',
    '10:20:30Z',
    '2026-12-03T10:20:30+01:00',
    'a@b.example',
    'b.example',
    '192.0.2.1',
    'https://b.example/x',
    '123e4567-e89b-12d3-a456-426614174000',
    '2026-13-03',
  ),
);

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3, noNullPrototype: true }),
  ),
}));

type Schema = Record<string, unknown> | boolean;

/** One keyword at a time, so a schema is a small bag of them; `sub` is a nested schema. */
function keyword(sub: fc.Arbitrary<Schema>): fc.Arbitrary<[string, unknown]> {
  const pair = <T>(name: string, arbitrary: fc.Arbitrary<T>) =>
    arbitrary.map((each): [string, unknown] => [name, each]);
  return fc.oneof(
    pair(
      'type',
      fc.oneof(
        fc.constantFrom(...TYPES),
        fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
      ),
    ),
    pair(
      'enum',
      fc.uniqueArray(value, { minLength: 1, maxLength: 3, selector: (each) => JSON.stringify(each) }),
    ),
    pair('const', value),
    pair('minimum', number),
    pair('maximum', number),
    pair('exclusiveMinimum', number),
    pair('exclusiveMaximum', number),
    pair('multipleOf', fc.constantFrom(0.1, 0.5, 1, 2, 3)),
    pair('minLength', count),
    pair('maxLength', count),
    pair('pattern', fc.constantFrom(...PATTERNS)),
    pair('minItems', count),
    pair('maxItems', count),
    pair('uniqueItems', fc.boolean()),
    pair('items', fc.oneof(sub, fc.array(sub, { minLength: 1, maxLength: 3 }))),
    pair('additionalItems', sub),
    pair('contains', sub),
    pair('minProperties', count),
    pair('maxProperties', count),
    pair('required', fc.uniqueArray(key, { maxLength: 3 })),
    pair('properties', fc.dictionary(key, sub, { maxKeys: 3, noNullPrototype: true })),
    pair(
      'patternProperties',
      fc.dictionary(fc.constantFrom(...PATTERNS), sub, { maxKeys: 2, noNullPrototype: true }),
    ),
    pair('additionalProperties', sub),
    pair('propertyNames', sub),
    pair(
      'dependencies',
      fc.dictionary(key, fc.oneof(fc.uniqueArray(key, { maxLength: 2 }), sub), {
        maxKeys: 2,
        noNullPrototype: true,
      }),
    ),
    pair('allOf', fc.array(sub, { minLength: 1, maxLength: 3 })),
    pair('anyOf', fc.array(sub, { minLength: 1, maxLength: 3 })),
    pair('oneOf', fc.array(sub, { minLength: 1, maxLength: 3 })),
    pair('not', sub),
    pair('if', sub),
    pair('then', sub),
    pair('else', sub),
    pair(
      'format',
      fc.constantFrom(...Object.keys(STRING_FORMAT_PATTERNS), ...Object.keys(NUMBER_FORMAT_TESTS)),
    ),
    pair('description', fc.constant('annotation only')),
  );
}

const { schema } = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.boolean(),
    fc.array(keyword(tie('schema')), { maxLength: 4 }).map((pairs) => Object.fromEntries(pairs)),
  ),
}));
const objectSchema = schema.filter((each): each is Record<string, unknown> => typeof each !== 'boolean');

function hubAccepts(schema: Record<string, unknown>, value: unknown): boolean {
  return compileToolSchema(schema)(value) === undefined;
}

describe('the kit’s schema check, held to the hub’s Ajv', () => {
  it('accepts exactly the values Ajv accepts, over generated schemas and values', () => {
    fc.assert(
      fc.property(objectSchema, fc.array(value, { minLength: 1, maxLength: 6 }), (generated, values) => {
        for (const each of values)
          expect(checkSchema(generated, each) === null, JSON.stringify({ generated, each })).toBe(
            hubAccepts(generated, each),
          );
      }),
      { numRuns: 1500 },
    );
  });

  it('agrees on the cases that used to slip: float multiples, key order, boolean and tuple schemas', () => {
    const cases: [Record<string, unknown>, unknown][] = [
      [{ multipleOf: 0.1 }, 0.3],
      [
        { uniqueItems: true },
        [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      ],
      [{ const: { a: 1, b: 2 } }, { b: 2, a: 1 }],
      [{ properties: { a: false } }, { a: 1 }],
      [{ items: [{ type: 'string' }], additionalItems: false }, ['x', 'y']],
      [{ allOf: [false] }, 1],
      [{ not: true }, 1],
      [{ contains: { const: 2 } }, [1, 3]],
      [{ format: 'date' }, ''],
      [{ format: 'date' }, '2026-12-03'],
      [{ format: 'email' }, 'A@B.EXAMPLE'],
      [{ format: 'date' }, 3],
      [{ format: 'int32' }, 2 ** 31],
      [{ format: 'int32' }, 'x'],
      [{ format: 'byte' }, 'YWJj'],
    ];
    for (const [generated, each] of cases)
      expect(checkSchema(generated, each) === null, JSON.stringify(generated)).toBe(
        hubAccepts(generated, each),
      );
  });

  it('refuses every value under a schema with a keyword it does not enforce, or a malformed one', () => {
    const unsupported: Record<string, unknown>[] = [
      { $ref: '#/definitions/x', definitions: { x: { type: 'string' } } },
      { type: 'object', properties: { a: { $ref: '#' } } },
      { type: 'string', maxlength: 3 },
      { type: 'object', properties: { a: { 'x-unknown': true } } },
      { anyOf: [{ dependentRequired: { a: ['b'] } }] },
      { type: 'number', maximum: '3' },
      { type: 'text' },
      { type: 'string', pattern: '(' },
      { items: [{ toString: 1 }] },
      { items: [] },
      { required: ['a', 'a'] },
      { type: 'string', format: 'ipv6' },
    ];
    fc.assert(
      fc.property(fc.constantFrom(...unsupported), value, (generated, each) => {
        expect(checkSchema(generated, each)).toMatch(/the schema of arguments (uses|has a malformed)/);
      }),
      { numRuns: 300 },
    );
  });
});
