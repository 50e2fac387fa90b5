import { isObject } from '@diosc/protocol';

const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);

const isSchema = (value: unknown): boolean => typeof value === 'boolean' || isObject(value);
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isFiniteNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);
const isStrings = (value: unknown): boolean =>
  Array.isArray(value) &&
  value.every((each) => typeof each === 'string') &&
  new Set(value).size === value.length;

function compiles(pattern: unknown): boolean {
  if (typeof pattern !== 'string') return false;
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * Keywords that say nothing about validity: ignored here as the hub's validator ignores them.
 * `format` is not one: the hub checks it, and the kit's initial JavaScript has no room for the
 * format expressions, so an edit under a schema that names a format is refused (fail closed).
 */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'readOnly',
  'writeOnly',
  'contentMediaType',
  'contentEncoding',
]);

/** The keywords `checkSchema` enforces, each with what its value must look like. */
const SHAPES: Record<string, (value: unknown) => boolean> = {
  type: (value) =>
    (typeof value === 'string' && TYPES.has(value)) ||
    (Array.isArray(value) &&
      value.length > 0 &&
      value.every((each) => TYPES.has(each)) &&
      new Set(value).size === value.length),
  enum: Array.isArray,
  const: () => true,
  required: isStrings,
  minimum: isFiniteNumber,
  maximum: isFiniteNumber,
  exclusiveMinimum: isFiniteNumber,
  exclusiveMaximum: isFiniteNumber,
  multipleOf: (value) => isFiniteNumber(value) && (value as number) > 0,
  minLength: isCount,
  maxLength: isCount,
  pattern: compiles,
  minItems: isCount,
  maxItems: isCount,
  uniqueItems: (value) => typeof value === 'boolean',
  minProperties: isCount,
  maxProperties: isCount,
  properties: isObject,
  patternProperties: (value) => isObject(value) && Object.keys(value).every(compiles),
  additionalProperties: isSchema,
  propertyNames: isSchema,
  dependencies: (value) =>
    isObject(value) && Object.values(value).every((each) => isStrings(each) || isSchema(each)),
  items: (value) => isSchema(value) || (Array.isArray(value) && value.length > 0 && value.every(isSchema)),
  additionalItems: isSchema,
  contains: isSchema,
  allOf: (value) => Array.isArray(value) && value.length > 0,
  anyOf: (value) => Array.isArray(value) && value.length > 0,
  oneOf: (value) => Array.isArray(value) && value.length > 0,
  not: isSchema,
  if: isSchema,
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, in a table nobody awaits
  then: isSchema,
  else: isSchema,
};

/** The subschemas under a keyword's value, to be held to the same rule. */
function subschemas(keyword: string, value: unknown): unknown[] {
  switch (keyword) {
    case 'properties':
    case 'patternProperties':
      return Object.values(value as Record<string, unknown>);
    case 'dependencies':
      return Object.values(value as Record<string, unknown>).filter((each) => !Array.isArray(each));
    case 'items':
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
      return Array.isArray(value) ? value : [value];
    case 'additionalProperties':
    case 'propertyNames':
    case 'additionalItems':
    case 'contains':
    case 'not':
    case 'if':
    case 'then':
    case 'else':
      return [value];
    default:
      return [];
  }
}

/**
 * Why `checkSchema` cannot vouch for a schema — a keyword it does not enforce (`$ref`, say) or a
 * keyword whose value is malformed — or null when it can. An edit under such a schema is refused
 * rather than passed unchecked: the kit's check is the only one between edited intent arguments
 * and the page's handler.
 */
export function unsupportedSchema(schema: unknown, at = 'arguments'): string | null {
  if (typeof schema === 'boolean') return null;
  if (!isObject(schema)) return `the schema of ${at} is not a JSON Schema`;
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    const shape = Object.hasOwn(SHAPES, keyword) ? SHAPES[keyword] : undefined;
    if (!shape) return `the schema of ${at} uses \`${keyword}\`, which the kit cannot check`;
    if (!shape(value)) return `the schema of ${at} has a malformed \`${keyword}\``;
    for (const inner of subschemas(keyword, value)) {
      const problem = unsupportedSchema(inner, at);
      if (problem) return problem;
    }
  }
  return null;
}
