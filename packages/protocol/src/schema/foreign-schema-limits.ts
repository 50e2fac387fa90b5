/**
 * What a JSON Schema from outside the server's own code (a page intent, an edit checked at approval,
 * an external MCP server's tool, an owner's browser tool) may cost. Every limit bounds either the
 * compile (size, depth, keywords after `$ref` expansion, pattern length) or each check against it
 * (a linear-time regex engine, the value's size); the cache bounds what compiled schemas keep.
 */
export const FOREIGN_SCHEMA_LIMITS = {
  /** The schema as canonical JSON text, in characters (the page's own cap is the same). */
  maxChars: 16_384,
  /** Nesting of objects and arrays anywhere in the schema. */
  maxDepth: 32,
  /** Keys and array items, counted with every local `$ref` expanded in place. */
  maxKeywords: 2_048,
  /** One `pattern` or `patternProperties` key, in characters. */
  maxPatternChars: 512,
  /** The value checked against a schema, as JSON text, in characters. */
  maxValueChars: 65_536,
  /** Compiled validators kept, least recently used dropped first. */
  cachedValidators: 256,
  /** Compiles per validator engine before a fresh one is started: ajv keeps every compile's code. */
  compilesPerEngine: 64,
} as const;

/**
 * The `format`s a foreign schema may name: each is checked by a linear-time expression or a
 * constant-time test on a value already bounded in size (`password` and `binary` are input hints
 * and match any string; `float` and `double` any number). Any other format is refused rather than
 * silently ignored. The OpenAPI ones are here because servers generated from OpenAPI use them.
 */
export const FOREIGN_SCHEMA_FORMATS = [
  'date',
  'time',
  'date-time',
  'email',
  'hostname',
  'ipv4',
  'uri',
  'uuid',
  'byte',
  'binary',
  'password',
  'int32',
  'int64',
  'float',
  'double',
] as const;
