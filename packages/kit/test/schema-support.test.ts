import { describe, expect, it } from 'vitest';
import { unsupportedSchema } from '../src/consensus/schema-support.js';

/**
 * Which schemas the kit's own check can vouch for. An edit under any other is refused, so a keyword
 * the check does not enforce, or one whose value it would misread, must be named here — at any
 * depth — and every well-formed schema must pass, or a legitimate edit could never be approved.
 */
const vouched = (schema: unknown) => expect(unsupportedSchema(schema)).toBeNull();
const malformed = (schema: Record<string, unknown>, keyword: string) =>
  expect(unsupportedSchema(schema)).toBe(`the schema of arguments has a malformed \`${keyword}\``);
const unchecked = (schema: unknown, keyword: string) =>
  expect(unsupportedSchema(schema)).toBe(
    `the schema of arguments uses \`${keyword}\`, which the kit cannot check`,
  );

describe('unsupportedSchema', () => {
  it('vouches for boolean schemas and refuses what is no schema, naming where', () => {
    vouched(true);
    vouched(false);
    vouched({});
    for (const value of [null, 5, 'object', [], undefined]) {
      expect(unsupportedSchema(value)).toBe('the schema of arguments is not a JSON Schema');
    }
    expect(unsupportedSchema(7, 'the edit of invite')).toBe(
      'the schema of the edit of invite is not a JSON Schema',
    );
    expect(unsupportedSchema({ $ref: '#' }, 'the edit')).toBe(
      'the schema of the edit uses `$ref`, which the kit cannot check',
    );
  });

  it('ignores every annotation, whatever its value', () => {
    // JSON Schema's annotation keywords (draft 7), by the standard's names.
    const annotations = '$schema $id $comment title description default examples readOnly writeOnly';
    for (const keyword of [...annotations.split(' '), 'contentMediaType', 'contentEncoding']) {
      vouched({ [keyword]: { $ref: '#' } });
    }
  });

  it('refuses a keyword it does not enforce, including names every object inherits', () => {
    for (const keyword of [
      '$ref',
      'format',
      'unevaluatedProperties',
      'dependentRequired',
      'toString',
      'constructor',
    ]) {
      unchecked({ [keyword]: {} }, keyword);
    }
  });

  it('type: each JSON type name, or a non-empty list of distinct ones', () => {
    for (const name of ['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']) {
      vouched({ type: name });
      vouched({ type: [name] });
    }
    vouched({ type: ['string', 'null'] });
    for (const bad of ['float', '', [], ['string', 'string'], ['string', 'float'], 5, null])
      malformed({ type: bad }, 'type');
  });

  it('numbers: finite bounds, a positive multipleOf', () => {
    for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
      vouched({ [keyword]: -1.5 });
      vouched({ [keyword]: 0 });
      for (const bad of [Number.POSITIVE_INFINITY, Number.NaN, '1', null])
        malformed({ [keyword]: bad }, keyword);
    }
    vouched({ multipleOf: 0.5 });
    vouched({ multipleOf: 3 });
    for (const bad of [0, -2, Number.POSITIVE_INFINITY, '2']) malformed({ multipleOf: bad }, 'multipleOf');
  });

  it('counts: whole numbers from zero', () => {
    for (const keyword of [
      'minLength',
      'maxLength',
      'minItems',
      'maxItems',
      'minProperties',
      'maxProperties',
    ]) {
      vouched({ [keyword]: 0 });
      vouched({ [keyword]: 4 });
      for (const bad of [-1, 1.5, '1', null]) malformed({ [keyword]: bad }, keyword);
    }
  });

  it('required: distinct strings; enum: a list; const: anything; uniqueItems: a boolean', () => {
    vouched({ required: [] });
    vouched({ required: ['a', 'b'] });
    for (const bad of [['a', 'a'], ['a', 1], 'a', null]) malformed({ required: bad }, 'required');
    vouched({ enum: [1, 'a', null] });
    malformed({ enum: 'a' }, 'enum');
    vouched({ const: null });
    vouched({ const: { $ref: '#' } });
    vouched({ uniqueItems: true });
    vouched({ uniqueItems: false });
    malformed({ uniqueItems: 'yes' }, 'uniqueItems');
  });

  it('pattern and patternProperties: what compiles as a Unicode regular expression', () => {
    vouched({ pattern: '^a+$' });
    // `\q` is an identity escape without the u flag and an error with it: the hub reads it with u.
    for (const bad of ['(', '\\q', 5]) malformed({ pattern: bad }, 'pattern');
    vouched({ patternProperties: { '^a': { type: 'string' } } });
    for (const bad of [{ '(': {} }, { '\\q': {} }, 5, null])
      malformed({ patternProperties: bad }, 'patternProperties');
  });

  it('keywords holding schemas: a schema (object or boolean) in the shape each takes', () => {
    for (const keyword of [
      'additionalProperties',
      'propertyNames',
      'additionalItems',
      'contains',
      'not',
      'if',
      'then',
      'else',
    ]) {
      vouched({ [keyword]: true });
      vouched({ [keyword]: false });
      vouched({ [keyword]: { type: 'string' } });
      for (const bad of [5, null, 'x', []]) malformed({ [keyword]: bad }, keyword);
    }
    vouched({ properties: { a: { type: 'string' } } });
    for (const bad of [5, null, []]) malformed({ properties: bad }, 'properties');
    vouched({ items: { type: 'string' } });
    vouched({ items: true });
    vouched({ items: [{ type: 'string' }, false] });
    for (const bad of [[], [5], 5, null]) malformed({ items: bad }, 'items');
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
      vouched({ [keyword]: [{ type: 'string' }] });
      for (const bad of [[], {}, 5]) malformed({ [keyword]: bad }, keyword);
    }
    vouched({ dependencies: { a: ['b'], c: { required: ['d'] }, e: true } });
    for (const bad of [{ a: 5 }, { a: [1] }, 5, null]) malformed({ dependencies: bad }, 'dependencies');
  });

  it('holds every subschema, at every place one sits, to the same rule', () => {
    const inner = { $ref: '#/definitions/x' };
    for (const schema of [
      { properties: { a: inner } },
      { patternProperties: { '^a': inner } },
      { dependencies: { a: inner } },
      { items: inner },
      { items: [{}, inner] },
      { allOf: [{}, inner] },
      { anyOf: [inner] },
      { oneOf: [inner] },
      { additionalProperties: inner },
      { propertyNames: inner },
      { additionalItems: inner },
      { contains: inner },
      { not: inner },
      { if: inner },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a value nobody awaits
      { then: inner },
      { else: inner },
      { properties: { a: { items: { not: { properties: { b: inner } } } } } },
    ]) {
      unchecked(schema, '$ref');
    }
    // A dependency's list of names is not a schema: its strings are not keywords.
    vouched({ dependencies: { a: ['$ref'] } });
    // Keywords that hold no subschema are not searched: an enum's or const's objects are values.
    vouched({ enum: [inner] });
    // Every keyword is checked, not only the first.
    malformed({ type: 'string', minLength: -1 }, 'minLength');
    unchecked({ type: 'object', properties: {}, format: 'email' }, 'format');
  });
});
