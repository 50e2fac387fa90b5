import { describe, expect, it } from 'vitest';
import { checkSchema } from '../src/consensus/schema-check.js';

/**
 * The Edit form's schema check, keyword by keyword, at each bound and on both sides of it. Every
 * verdict here is JSON Schema's (what Ajv answers too); a refusal names where the problem is.
 */
const ok = (schema: Record<string, unknown>, value: unknown) => expect(checkSchema(schema, value)).toBeNull();
const refused = (schema: Record<string, unknown>, value: unknown, where: RegExp) =>
  expect(checkSchema(schema, value)).toMatch(where);

describe('checkSchema', () => {
  it('type: each JSON type, integer inside number, and a list of types', () => {
    ok({ type: 'null' }, null);
    refused({ type: 'object' }, null, /^arguments must be object$/);
    ok({ type: 'array' }, []);
    refused({ type: 'object' }, [], /^arguments must be object$/);
    refused({ type: 'array' }, {}, /^arguments must be array$/);
    ok({ type: 'object' }, {});
    ok({ type: 'integer' }, 3);
    refused({ type: 'integer' }, 3.5, /^arguments must be integer$/);
    ok({ type: 'number' }, 3);
    ok({ type: 'number' }, 3.5);
    refused({ type: 'number' }, '3', /^arguments must be number$/);
    ok({ type: 'string' }, 'x');
    refused({ type: 'string' }, 1, /^arguments must be string$/);
    ok({ type: 'boolean' }, false);
    refused({ type: 'boolean' }, 0, /^arguments must be boolean$/);
    ok({ type: ['string', 'null'] }, null);
    ok({ type: ['string', 'null'] }, 'x');
    refused({ type: ['string', 'null'] }, 1, /^arguments must be string or null$/);
    ok({ type: ['integer'] }, 2);
    refused({ type: ['integer'] }, 2.5, /^arguments must be integer$/);
    ok({ type: ['number'] }, 2);
  });

  it('enum and const compare values, not their types alone', () => {
    ok({ enum: ['a', 1, null] }, 1);
    ok({ enum: ['a', 1, null] }, null);
    refused({ enum: ['a', 1, null] }, '1', /^arguments must be one of "a", 1, null$/);
    ok({ enum: [[1, 2]] }, [1, 2]);
    refused({ enum: [[1, 2]] }, [2, 1], /^arguments must be one of/);
    ok({ const: 'x' }, 'x');
    refused({ const: 'x' }, 'y', /^arguments must be "x"$/);
    ok({ const: null }, null);
    refused({ const: null }, 0, /^arguments must be null$/);
    // No const keyword: nothing is compared.
    ok({}, 'anything');
  });

  it('allOf: every part must hold', () => {
    const schema = { allOf: [{ type: 'integer' }, { minimum: 2 }] };
    ok(schema, 3);
    refused(schema, 1, /^arguments must be ≥ 2$/);
    refused(schema, 2.5, /^arguments must be integer$/);
  });

  it('anyOf: at least one alternative; oneOf: exactly one', () => {
    const any = { anyOf: [{ type: 'string' }, { minimum: 10 }] };
    ok(any, 'x');
    ok(any, 12);
    refused(any, 3, /^arguments matches none of the allowed forms$/);
    const one = { oneOf: [{ type: 'integer' }, { minimum: 10 }] };
    ok(one, 3);
    ok(one, 10.5);
    refused(one, 12, /^arguments must match exactly one of the allowed forms$/);
    refused(one, 1.5, /^arguments must match exactly one of the allowed forms$/);
    ok({ oneOf: [{ type: 'string' }] }, 'x');
    refused({ oneOf: [{ type: 'string' }] }, 1, /^arguments must match exactly one/);
  });

  it('not: the value must not match', () => {
    ok({ not: { type: 'string' } }, 1);
    refused({ not: { type: 'string' } }, 'x', /^arguments has a form that is not allowed$/);
  });

  it('number bounds, at the bound and either side', () => {
    ok({ minimum: 2 }, 2);
    refused({ minimum: 2 }, 1, /^arguments must be ≥ 2$/);
    ok({ maximum: 2 }, 2);
    refused({ maximum: 2 }, 3, /^arguments must be ≤ 2$/);
    ok({ exclusiveMinimum: 2 }, 3);
    refused({ exclusiveMinimum: 2 }, 2, /^arguments must be > 2$/);
    refused({ exclusiveMinimum: 2 }, 1, /^arguments must be > 2$/);
    ok({ exclusiveMaximum: 2 }, 1);
    refused({ exclusiveMaximum: 2 }, 2, /^arguments must be < 2$/);
    refused({ exclusiveMaximum: 2 }, 3, /^arguments must be < 2$/);
    ok({ multipleOf: 5 }, 10);
    ok({ multipleOf: 5 }, -15);
    ok({ multipleOf: 5 }, 0);
    refused({ multipleOf: 5 }, 7, /^arguments must be a multiple of 5$/);
    refused({ multipleOf: 5 }, 4, /^arguments must be a multiple of 5$/);
    // Bounds on a non-number say nothing about it.
    ok({ minimum: 2, maximum: 3, multipleOf: 7 }, 'a string');
  });

  it('string length counts characters (code points), and pattern is a Unicode expression', () => {
    ok({ minLength: 2 }, 'ab');
    refused({ minLength: 2 }, 'a', /^arguments needs at least 2 characters$/);
    ok({ maxLength: 2 }, 'ab');
    refused({ maxLength: 2 }, 'abc', /^arguments allows at most 2 characters$/);
    // One emoji is one character, though two UTF-16 units.
    ok({ maxLength: 1 }, '😀');
    refused({ minLength: 2 }, '😀', /^arguments needs at least 2 characters$/);
    ok({ pattern: '^.$' }, '😀');
    ok({ pattern: '^[a-z]+$' }, 'abc');
    refused({ pattern: '^[a-z]+$' }, 'abc1', /^arguments must match \^\[a-z\]\+\$$/);
    // String bounds on a non-string say nothing about it.
    ok({ minLength: 5, pattern: '^x$' }, 3);
  });

  it('array bounds, uniqueness, and items with the index in the path', () => {
    ok({ minItems: 2 }, [1, 2]);
    refused({ minItems: 2 }, [1], /^arguments needs at least 2 items$/);
    ok({ maxItems: 2 }, [1, 2]);
    refused({ maxItems: 2 }, [1, 2, 3], /^arguments allows at most 2 items$/);
    ok({ uniqueItems: true }, [1, 2, '1']);
    refused({ uniqueItems: true }, [1, 2, 1], /^arguments must not repeat items$/);
    ok({ uniqueItems: false }, [1, 1]);
    ok({ items: { type: 'string' } }, ['a', 'b']);
    refused({ items: { type: 'string' } }, ['a', 'b', 3], /^arguments\[2\] must be string$/);
    refused({ items: { type: 'string' } }, [3, 'a'], /^arguments\[0\] must be string$/);
    ok({ items: { type: 'string' } }, []);
  });

  it('objects: required, properties with the key in the path, and additionalProperties', () => {
    const schema = { required: ['a'], properties: { a: { type: 'string' }, b: { type: 'integer' } } };
    ok(schema, { a: 'x' });
    ok(schema, { a: 'x', b: 1, extra: true });
    refused(schema, {}, /^arguments\.a is required$/);
    refused(schema, { b: 1 }, /^arguments\.a is required$/);
    refused(schema, { a: 'x', b: 'y' }, /^arguments\.b must be integer$/);
    refused(schema, { a: 1 }, /^arguments\.a must be string$/);
    refused(
      { ...schema, additionalProperties: false },
      { a: 'x', extra: 1 },
      /^arguments\.extra is not allowed$/,
    );
    ok({ ...schema, additionalProperties: false }, { a: 'x', b: 2 });
    ok({ ...schema, additionalProperties: true }, { a: 'x', extra: 1 });
    const typed = { ...schema, additionalProperties: { type: 'number' } };
    ok(typed, { a: 'x', extra: 1 });
    refused(typed, { a: 'x', extra: 'no' }, /^arguments\.extra must be number$/);
    // A valid additional key does not end the check: a later invalid one is still refused.
    refused(typed, { a: 'x', fine: 1, extra: 'no' }, /^arguments\.extra must be number$/);
    // Only the first problem is reported, and a later valid key does not hide an earlier one.
    refused(typed, { a: 'x', extra: 'no', more: 2 }, /^arguments\.extra must be number$/);
  });

  it('nests: a problem deep inside names its full path', () => {
    const schema = {
      type: 'object',
      properties: {
        list: {
          type: 'array',
          items: { type: 'object', properties: { n: { type: 'integer', maximum: 3 } } },
        },
      },
    };
    ok(schema, { list: [{ n: 1 }, { n: 3 }] });
    refused(schema, { list: [{ n: 1 }, { n: 4 }] }, /^arguments\.list\[1\]\.n must be ≤ 3$/);
    expect(checkSchema({ type: 'string' }, 1, 'value')).toBe('value must be string');
  });

  it('dependencies: a list of names each required with the key, a schema checked against the whole object', () => {
    const names = { dependencies: { a: ['b', 'c'] } };
    ok(names, { a: 1, b: 1, c: 1 });
    ok(names, { b: 1 });
    refused(names, { a: 1, b: 1 }, /^arguments\.c is required with a$/);
    // A dependency that holds does not end the check: the keys after it are still checked.
    const then = { properties: { b: { type: 'string' } }, dependencies: { a: { required: [] } } };
    ok(then, { a: 1, b: 'x' });
    refused(then, { a: 1, b: 2 }, /^arguments\.b must be string$/);
  });

  it('additionalProperties applies only to keys no property or pattern claims', () => {
    ok({ properties: { a: {} }, additionalProperties: false }, { a: 1 });
    ok({ patternProperties: { '^x': {} }, additionalProperties: false }, { x1: 1 });
    refused(
      { patternProperties: { '^x': {} }, additionalProperties: false },
      { y: 1 },
      /^arguments\.y is not allowed$/,
    );
  });

  it('a false subschema refuses wherever it sits', () => {
    refused({ items: false }, [1], /^arguments\[0\] is not allowed$/);
    ok({ items: false }, []);
    refused({ allOf: [true, false] }, 1, /^arguments is not allowed$/);
  });

  it('const and enum compare JSON values whole: arrays item by item, objects key by key, never one for the other', () => {
    refused({ const: [1, 2] }, [1, 3], /^arguments must be \[1,2\]$/);
    refused({ const: [1] }, { 0: 1 }, /^arguments must be \[1\]$/);
    refused({ const: { 0: 1 } }, [1], /^arguments must be/);
    refused({ const: { a: 1 } }, { a: 2 }, /^arguments must be/);
    refused({ const: { a: 1 } }, { b: 1 }, /^arguments must be/);
    ok({ const: { a: [1, { b: null }] } }, { a: [1, { b: null }] });
    refused({ enum: [[1, 2]] }, [2, 1], /^arguments must be one of \[1,2\]$/);
  });
});
