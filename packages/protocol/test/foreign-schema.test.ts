import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { DioscError } from '../src/errors/diosc-error.js';
import { validateHubBody } from '../src/hub-api/validators.js';
import { compileForeignSchema, foreignSchemaCacheSize } from '../src/schema/compile-foreign-schema.js';
import { FOREIGN_SCHEMA_LIMITS } from '../src/schema/foreign-schema-limits.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function heapAfterCollection(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** The refusal a compile throws: always `invalid_input`, with its message. */
function refusal(schema: unknown): string {
  try {
    compileForeignSchema(schema);
  } catch (error) {
    expect(DioscError.isInstance(error)).toBe(true);
    expect((error as DioscError).code).toBe('invalid_input');
    return (error as DioscError).message;
  }
  throw new Error('the schema was accepted');
}

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('a JSON Schema from outside compiles and runs at a bounded cost', () => {
  it('runs a catastrophic pattern in linear time: a long argument is answered, not hung on', () => {
    // A backtracking engine takes 2^n steps on this; the linear engine answers at once.
    const check = compileForeignSchema({
      type: 'object',
      properties: { q: { type: 'string', pattern: '^(a+)+$' } },
    });
    expect(check({ q: `${'a'.repeat(60_000)}!` })).toBe('arguments.q must match pattern "^(a+)+$".');
    expect(check({ q: 'aaaa' })).toBeUndefined();
    const keys = compileForeignSchema({
      type: 'object',
      patternProperties: { '^(a|aa)+$': { type: 'number' } },
    });
    expect(keys({ [`${'a'.repeat(5_000)}`]: 'x' })).toBe(`arguments.${'a'.repeat(5_000)} must be number.`);
    expect(keys({ [`${'a'.repeat(5_000)}b`]: 'x' })).toBeUndefined();
  });

  it('keeps the usual pattern meaning: a search, anchors, classes, unicode', () => {
    const check = compileForeignSchema({ type: 'string', pattern: '[0-9]{3}' });
    expect(check('ab123cd')).toBeUndefined();
    expect(check('ab12cd')).toBe('arguments must match pattern "[0-9]{3}".');
    expect(compileForeignSchema({ type: 'string', pattern: '^\\p{L}+$' })('Grüße')).toBeUndefined();
  });

  it('refuses a pattern the linear engine cannot run, never handing it to a backtracking one', () => {
    expect(refusal({ type: 'string', pattern: '^(a)\\1$' })).toMatch(
      /^The tool schema has the pattern "\^\(a\)\\\\1\$", which a linear-time regular expression engine cannot run/,
    );
    expect(refusal({ type: 'string', pattern: '^(?=a)a$' })).toMatch(/linear-time/);
    expect(refusal({ type: 'object', patternProperties: { '(?<!x)y': {} } })).toMatch(/linear-time/);
    expect(refusal({ type: 'string', pattern: 'a'.repeat(FOREIGN_SCHEMA_LIMITS.maxPatternChars + 1) })).toBe(
      `The tool schema has a pattern longer than ${FOREIGN_SCHEMA_LIMITS.maxPatternChars} characters.`,
    );
  });

  it('refuses a schema over the size, depth or keyword limits, naming the limit', () => {
    const big = { type: 'string', description: 'x'.repeat(FOREIGN_SCHEMA_LIMITS.maxChars) };
    expect(refusal(big)).toBe(
      `The tool schema is over ${FOREIGN_SCHEMA_LIMITS.maxChars} characters as JSON.`,
    );
    expect(refusal(nested(FOREIGN_SCHEMA_LIMITS.maxDepth))).toBe(
      `The tool schema is nested deeper than ${FOREIGN_SCHEMA_LIMITS.maxDepth} levels.`,
    );
    // Deeper than any recursive walk could take: refused by the iterative shape check.
    expect(refusal(nested(100_000))).toMatch(/nested deeper than/);
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`p${i}`, {}])),
    };
    expect(refusal(wide)).toBe(
      `The tool schema has more than ${FOREIGN_SCHEMA_LIMITS.maxKeywords} keywords and items.`,
    );
    // Small as text, huge once its $refs are expanded: each definition doubles the one before.
    const defs: Record<string, unknown> = { d0: { type: 'string', minLength: 1 } };
    for (let i = 1; i < 20; i++)
      defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
    expect(refusal({ $defs: defs, $ref: '#/$defs/d19' })).toBe(
      `The tool schema has more than ${FOREIGN_SCHEMA_LIMITS.maxKeywords} keywords and items with its $refs expanded.`,
    );
  });

  it('refuses references it cannot bound: recursive, outside the schema, dynamic', () => {
    expect(refusal({ type: 'object', properties: { child: { $ref: '#' } } })).toBe(
      'The tool schema has a recursive $ref.',
    );
    expect(
      refusal({
        $defs: { a: { $ref: '#/$defs/b' }, b: { items: { $ref: '#/$defs/a' } } },
        $ref: '#/$defs/a',
      }),
    ).toBe('The tool schema has a recursive $ref.');
    expect(refusal({ $ref: 'https://example.com/schema.json' })).toMatch(
      /only a JSON pointer into the schema itself/,
    );
    expect(refusal({ $ref: '#/$defs/missing' })).toMatch(/only a JSON pointer into the schema itself/);
    expect(refusal({ $dynamicRef: '#x' })).toBe('The tool schema uses $dynamicRef, which is not supported.');
    // A local, non-recursive reference is fine.
    const check = compileForeignSchema({
      type: 'object',
      $defs: { name: { type: 'string', maxLength: 3 } },
      properties: { a: { $ref: '#/$defs/name' } },
    });
    expect(check({ a: 'abcd' })).toBe('arguments.a must NOT have more than 3 characters.');
  });

  it('checks only the formats it can bound and refuses every other', () => {
    expect(refusal({ type: 'string', format: 'idn-email' })).toMatch(
      /^The tool schema uses the format "idn-email"; only date, time, date-time, email, hostname, ipv4, uri, uuid, byte, binary, password, int32, int64, float, double are supported\.$/,
    );
    const count = compileForeignSchema({ type: 'integer', format: 'int32' });
    expect(count(2 ** 31)).toBe('arguments must match format "int32".');
    expect(count(7)).toBeUndefined();
    expect(compileForeignSchema({ type: 'string', format: 'byte' })('aGk=')).toBeUndefined();
    expect(compileForeignSchema({ type: 'string', format: 'byte' })('a!')).toBe(
      'arguments must match format "byte".',
    );
    expect(refusal({ type: 'string', format: 'regex' })).toMatch(/format "regex"/);
    const date = compileForeignSchema({ type: 'string', format: 'date-time' });
    expect(date('2026-12-03T20:00:00Z')).toBeUndefined();
    expect(date('yesterday')).toBe('arguments must match format "date-time".');
    const email = compileForeignSchema({ type: 'string', format: 'email' });
    expect(email(`${'a'.repeat(30_000)}@`)).toBe('arguments must match format "email".');
    // A property named like a keyword is a name, not a keyword.
    expect(() =>
      compileForeignSchema({ type: 'object', properties: { format: { type: 'string' }, pattern: {} } }),
    ).not.toThrow();
  });

  it('bounds the value checked against a schema', () => {
    const check = compileForeignSchema({ type: 'object' });
    const text = 'x'.repeat(FOREIGN_SCHEMA_LIMITS.maxValueChars);
    expect(check({ text })).toBe(
      `arguments are ${FOREIGN_SCHEMA_LIMITS.maxValueChars + 11} characters as JSON; at most ${FOREIGN_SCHEMA_LIMITS.maxValueChars} are allowed.`,
    );
  });

  it('refuses a hostile intent in a page body before anything else sees it', () => {
    const body = {
      text: 'hi',
      registry: {
        tools: [],
        intents: [{ name: 'find', description: 'Find.', schema: { type: 'string', pattern: '(a)\\1' } }],
      },
    };
    expect(() => validateHubBody('sendMessage', body)).toThrow(
      /^body\.registry\.intents\[0\]\.schema has the pattern "\(a\)\\\\1", which a linear-time/,
    );
  });

  it('keys the cache by canonical text: the same schema with its keys reordered is one entry', () => {
    const before = foreignSchemaCacheSize();
    compileForeignSchema({ b: 1, type: 'object' });
    compileForeignSchema({ type: 'object', b: 1 });
    expect(foreignSchemaCacheSize()).toBe(Math.min(before + 1, FOREIGN_SCHEMA_LIMITS.cachedValidators));
  });
});

/**
 * 10,000 distinct page schemas through the public compile, in batches of 1,000 (one test each, so
 * no single test nears the timeout on a loaded machine): the cache stays at its bound and the heap
 * after a full collection stays flat, where keeping every compile (ajv's own cache and scope) takes
 * tens of megabytes.
 */
describe.sequential('compiled foreign schemas are freed', () => {
  const schema = (i: number) => ({
    type: 'object',
    properties: { [`field${i}`]: { type: 'string', pattern: `^v${i}-[a-z]+$`, maxLength: 40 } },
    required: [`field${i}`],
  });
  let settled = 0;

  it('compiles the first 1,000 and settles the heap', () => {
    for (let i = 0; i < 1_000; i++) compileForeignSchema(schema(i));
    settled = heapAfterCollection();
    expect(foreignSchemaCacheSize()).toBe(FOREIGN_SCHEMA_LIMITS.cachedValidators);
  });

  for (let batch = 1; batch < 10; batch++) {
    it(`compiles schemas ${batch * 1_000} to ${batch * 1_000 + 999}, each still checking`, () => {
      for (let i = batch * 1_000; i < (batch + 1) * 1_000; i++) {
        const check = compileForeignSchema(schema(i));
        if (i % 250 === 0) {
          expect(check({ [`field${i}`]: `v${i}-ok` })).toBeUndefined();
          expect(check({ [`field${i}`]: `v${i}-KO` })).toMatch(/must match pattern/);
        }
      }
      expect(foreignSchemaCacheSize()).toBe(FOREIGN_SCHEMA_LIMITS.cachedValidators);
    });
  }

  it('after 10,000, holds no more than after 1,000', () => {
    const grown = heapAfterCollection() - settled;
    expect(grown).toBeLessThan(8 * 1024 * 1024);
  });
});
