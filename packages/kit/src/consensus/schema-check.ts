import { isObject } from '../runtime/is-object.js';

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
  if (typeof multipleOf === 'number' && Math.abs(value / multipleOf - Math.round(value / multipleOf)) > 1e-9)
    return `${at} must be a multiple of ${multipleOf}`;
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
  if (schema.uniqueItems === true && new Set(value.map((item) => JSON.stringify(item))).size !== value.length)
    return `${at} must not repeat items`;
  if (isObject(schema.items)) {
    for (let i = 0; i < value.length; i++) {
      const problem = checkSchema(schema.items, value[i], `${at}[${i}]`);
      if (problem) return problem;
    }
  }
  return null;
}

function checkObject(schema: Schema, value: Record<string, unknown>, at: string): string | null {
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const key of Array.isArray(schema.required) ? schema.required : [])
    if (!(key in value)) return `${at}.${String(key)} is required`;
  for (const [key, item] of Object.entries(value)) {
    const inner = properties[key];
    const where = `${at}.${key}`;
    if (isObject(inner)) {
      const problem = checkSchema(inner, item, where);
      if (problem) return problem;
    } else if (schema.additionalProperties === false) return `${where} is not allowed`;
    else if (isObject(schema.additionalProperties)) {
      const problem = checkSchema(schema.additionalProperties, item, where);
      if (problem) return problem;
    }
  }
  return null;
}

/**
 * Checks a value against the JSON Schema keywords an intent's or a tool's arguments use (type,
 * enum, const, required, properties, additionalProperties, items, string/number/array bounds,
 * pattern, allOf/anyOf/oneOf/not). Unknown keywords are ignored, as the hub's lenient compile does;
 * the hub checks edited server-tool arguments again with the full validator. Returns the first
 * problem, or null.
 */
export function checkSchema(schema: Schema, value: unknown, at = 'arguments'): string | null {
  if (schema.type !== undefined && !matchesType(value, schema.type))
    return `${at} must be ${Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type)}`;
  if (
    Array.isArray(schema.enum) &&
    !schema.enum.some((each) => JSON.stringify(each) === JSON.stringify(value))
  )
    return `${at} must be one of ${schema.enum.map((each) => JSON.stringify(each)).join(', ')}`;
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value))
    return `${at} must be ${JSON.stringify(schema.const)}`;
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const problem = isObject(part) ? checkSchema(part, value, at) : null;
    if (problem) return problem;
  }
  const alternatives = (key: 'anyOf' | 'oneOf') =>
    Array.isArray(schema[key])
      ? (schema[key] as unknown[]).filter((part) => isObject(part) && !checkSchema(part, value, at)).length
      : -1;
  const any = alternatives('anyOf');
  if (any === 0) return `${at} matches none of the allowed forms`;
  const one = alternatives('oneOf');
  if (one !== -1 && one !== 1) return `${at} must match exactly one of the allowed forms`;
  if (isObject(schema.not) && !checkSchema(schema.not, value, at))
    return `${at} has a form that is not allowed`;
  if (typeof value === 'number') return checkNumber(schema, value, at);
  if (typeof value === 'string') return checkString(schema, value, at);
  if (Array.isArray(value)) return checkArray(schema, value, at);
  if (isObject(value)) return checkObject(schema, value, at);
  return null;
}
