import { isObject } from '@diosc/protocol';
import { jsonEqual } from './json-equal.js';
import { unsupportedSchema } from './schema-support.js';

type Schema = Record<string, unknown>;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value: unknown, type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  const actual = typeOf(value);
  return types.some((each) => each === actual || (each === 'number' && actual === 'integer'));
}

function checkNumber(schema: Schema, value: number, at: string): string | null {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  if (typeof minimum === 'number' && value < minimum) return `${at} must be ≥ ${minimum}`;
  if (typeof maximum === 'number' && value > maximum) return `${at} must be ≤ ${maximum}`;
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum)
    return `${at} must be > ${exclusiveMinimum}`;
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum)
    return `${at} must be < ${exclusiveMaximum}`;
  if (typeof multipleOf === 'number') {
    // Ajv's own test, so the kit and the hub agree on floating-point quotients such as 0.3 / 0.1.
    const quotient = value / multipleOf;
    if (quotient !== Number.parseInt(String(quotient), 10))
      return `${at} must be a multiple of ${multipleOf}`;
  }
  return null;
}

function checkString(schema: Schema, value: string, at: string): string | null {
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength)
    return `${at} needs at least ${schema.minLength} characters`;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength)
    return `${at} allows at most ${schema.maxLength} characters`;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
    return `${at} must match ${schema.pattern}`;
  return null;
}

function checkArray(schema: Schema, value: unknown[], at: string): string | null {
  if (typeof schema.minItems === 'number' && value.length < schema.minItems)
    return `${at} needs at least ${schema.minItems} items`;
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
    return `${at} allows at most ${schema.maxItems} items`;
  if (
    schema.uniqueItems === true &&
    value.some((item, i) => value.slice(i + 1).some((other) => jsonEqual(item, other)))
  )
    return `${at} must not repeat items`;
  const { items, additionalItems, contains } = schema;
  for (let i = 0; i < value.length; i++) {
    const inner = Array.isArray(items) ? (i < items.length ? items[i] : additionalItems) : items;
    const problem = inner === undefined ? null : check(inner, value[i], `${at}[${i}]`);
    if (problem) return problem;
  }
  if (contains !== undefined && !value.some((item) => check(contains, item, at) === null))
    return `${at} needs an item of the required form`;
  return null;
}

function checkObject(schema: Schema, value: Record<string, unknown>, at: string): string | null {
  const keys = Object.keys(value);
  if (typeof schema.minProperties === 'number' && keys.length < schema.minProperties)
    return `${at} needs at least ${schema.minProperties} properties`;
  if (typeof schema.maxProperties === 'number' && keys.length > schema.maxProperties)
    return `${at} allows at most ${schema.maxProperties} properties`;
  for (const key of (schema.required as string[] | undefined) ?? [])
    if (!Object.hasOwn(value, key)) return `${at}.${key} is required`;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, unknown>).map(
    ([pattern, inner]) => [new RegExp(pattern, 'u'), inner] as const,
  );
  const dependencies = (schema.dependencies ?? {}) as Record<string, unknown>;
  for (const key of keys) {
    const where = `${at}.${key}`;
    if (schema.propertyNames !== undefined && check(schema.propertyNames, key, where) !== null)
      return `${where} is not an allowed name`;
    const declared = Object.hasOwn(properties, key);
    const matching = patterns.filter(([pattern]) => pattern.test(key)).map(([, inner]) => inner);
    const applies = [...(declared ? [properties[key]] : []), ...matching];
    if (!declared && matching.length === 0 && schema.additionalProperties !== undefined)
      applies.push(schema.additionalProperties);
    for (const inner of applies) {
      const problem = inner === false ? `${where} is not allowed` : check(inner, value[key], where);
      if (problem) return problem;
    }
    if (!Object.hasOwn(dependencies, key)) continue;
    const dependency = dependencies[key];
    if (Array.isArray(dependency)) {
      const missing = dependency.find((name) => !Object.hasOwn(value, name));
      if (missing !== undefined) return `${at}.${missing} is required with ${key}`;
    } else {
      const problem = check(dependency, value, at);
      if (problem) return problem;
    }
  }
  return null;
}

function check(schema: unknown, value: unknown, at: string): string | null {
  if (schema === true) return null;
  if (schema === false || !isObject(schema)) return `${at} is not allowed`;
  if (schema.type !== undefined && !matchesType(value, schema.type))
    return `${at} must be ${Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type)}`;
  if (Array.isArray(schema.enum) && !schema.enum.some((each) => jsonEqual(each, value)))
    return `${at} must be one of ${schema.enum.map((each) => JSON.stringify(each)).join(', ')}`;
  if ('const' in schema && !jsonEqual(schema.const, value))
    return `${at} must be ${JSON.stringify(schema.const)}`;
  for (const part of (schema.allOf as unknown[] | undefined) ?? []) {
    const problem = check(part, value, at);
    if (problem) return problem;
  }
  const matches = (key: 'anyOf' | 'oneOf') =>
    Array.isArray(schema[key])
      ? (schema[key] as unknown[]).filter((part) => !check(part, value, at)).length
      : -1;
  if (matches('anyOf') === 0) return `${at} matches none of the allowed forms`;
  const one = matches('oneOf');
  if (one !== -1 && one !== 1) return `${at} must match exactly one of the allowed forms`;
  if (schema.not !== undefined && !check(schema.not, value, at))
    return `${at} has a form that is not allowed`;
  if (schema.if !== undefined) {
    const branch = check(schema.if, value, at) === null ? schema.then : schema.else;
    const problem = branch === undefined ? null : check(branch, value, at);
    if (problem) return problem;
  }
  if (typeof value === 'number') return checkNumber(schema, value, at);
  if (typeof value === 'string') return checkString(schema, value, at);
  if (Array.isArray(value)) return checkArray(schema, value, at);
  if (isObject(value)) return checkObject(schema, value, at);
  return null;
}

/**
 * Checks edited arguments against their JSON Schema (draft-07, the hub's dialect) and returns the
 * first problem, or null. It agrees with the hub's Ajv on every keyword it supports (a property
 * test holds it to Ajv's verdict); a schema with a keyword it does not support (`$ref`, say) or a
 * malformed one is refused whatever the value, since for an intent this is the only check before
 * the page's handler runs.
 */
export function checkSchema(schema: Schema, value: unknown, at = 'arguments'): string | null {
  return unsupportedSchema(schema, at) ?? check(schema, value, at);
}
