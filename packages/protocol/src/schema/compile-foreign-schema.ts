import { Ajv, type Options } from 'ajv';
import { RE2JS } from 're2js';
import { DioscError } from '../errors/diosc-error.js';
import { canonicalJson } from '../json/canonical-json.js';
import { describeSchemaErrors } from './describe-schema-errors.js';
import { NUMBER_FORMAT_TESTS, STRING_FORMAT_PATTERNS } from './foreign-formats.js';
import { FOREIGN_SCHEMA_LIMITS } from './foreign-schema-limits.js';
import { checkSchemaShape, inspectForeignSchema } from './inspect-foreign-schema.js';

/** A compiled foreign schema: undefined when the value matches, else a plain-text reason. */
export type ForeignSchemaCheck = (value: unknown) => string | undefined;

/**
 * Ajv's `pattern` and `patternProperties` run on RE2JS: time linear in the input, whatever the
 * pattern. RE2JS's `test` searches like `RegExp#test`, and its `toString` is the pattern, which ajv
 * uses to tell compiled patterns apart.
 */
const linearRegExp: NonNullable<NonNullable<Options['code']>['regExp']> = Object.assign(
  (pattern: string) => RE2JS.compile(pattern),
  {
    code: 'RE2JS.compile',
  },
);

function newEngine(): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    // Tool schemas come from hosts and MCP servers: lenient about unknown keywords, never strict.
    strict: false,
    allowUnionTypes: true,
    allowMatchingProperties: true,
    // Checked against the meta-schema by `metaAjv` first: each engine compiling the meta-schema
    // again would cost more than the schemas it compiles.
    validateSchema: false,
    // A compiled foreign schema is never registered under its `$id` for other schemas to reach.
    addUsedSchema: false,
    logger: false,
    code: { regExp: linearRegExp },
  });
  for (const [name, pattern] of Object.entries(STRING_FORMAT_PATTERNS)) {
    const expression = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    ajv.addFormat(name, { type: 'string', validate: (value: string) => expression.test(value) });
  }
  for (const [name, validate] of Object.entries(NUMBER_FORMAT_TESTS))
    ajv.addFormat(name, { type: 'number', validate });
  return ajv;
}

/** Only ever validates schemas against the draft-07 meta-schema, compiled once: it never grows. */
const metaAjv = new Ajv({ strict: false, logger: false, code: { regExp: linearRegExp } });

/**
 * Ajv keeps every compiled schema's code, patterns and schema object in its instance scope for
 * good (removeSchema does not release them), so an engine compiles a bounded number of schemas and
 * is then replaced; the old one lives only as long as a cached validator still uses it.
 */
let engine: { ajv: Ajv; compiles: number } | undefined;

function nextEngine(): Ajv {
  if (!engine || engine.compiles >= FOREIGN_SCHEMA_LIMITS.compilesPerEngine)
    engine = { ajv: newEngine(), compiles: 0 };
  engine.compiles += 1;
  return engine.ajv;
}

type Compiled = { check: ForeignSchemaCheck } | { refusal: string };

/** Least recently used first (a Map keeps insertion order; a hit is moved to the end). */
const cache = new Map<string, Compiled>();

function compile(schema: unknown, text: string): Compiled {
  if (text.length > FOREIGN_SCHEMA_LIMITS.maxChars)
    return { refusal: `is over ${FOREIGN_SCHEMA_LIMITS.maxChars} characters as JSON` };
  const problem = inspectForeignSchema(schema);
  if (problem) return { refusal: problem };
  if (!schema || typeof schema !== 'object' || Array.isArray(schema))
    return { refusal: 'is not a JSON object' };
  let meta: boolean;
  try {
    meta = metaAjv.validateSchema(schema) as boolean;
  } catch (error) {
    return {
      refusal: `is not valid JSON Schema: ${String((error as Error)?.message ?? error).slice(0, 200)}`,
    };
  }
  if (!meta)
    return { refusal: `is not valid JSON Schema: ${metaAjv.errorsText(metaAjv.errors).slice(0, 200)}` };
  const ajv = nextEngine();
  // A private copy: ajv caches by object identity, and the caller's object must not be the key.
  const own = JSON.parse(text) as Record<string, unknown>;
  let validate: ReturnType<Ajv['compile']>;
  try {
    validate = ajv.compile(own);
  } catch (error) {
    return {
      refusal: `is not valid JSON Schema: ${String((error as Error)?.message ?? error).slice(0, 200)}`,
    };
  } finally {
    ajv.removeSchema(own);
  }
  return {
    check(value) {
      const length = JSON.stringify(value)?.length ?? 0;
      if (length > FOREIGN_SCHEMA_LIMITS.maxValueChars)
        return `arguments are ${length} characters as JSON; at most ${FOREIGN_SCHEMA_LIMITS.maxValueChars} are allowed.`;
      return validate(value) ? undefined : describeSchemaErrors(validate.errors, 'arguments');
    },
  };
}

/**
 * Compiles a JSON Schema that comes from outside the server's own code — a page intent, the schema
 * an approval edit is checked against, an external MCP server's tool, an owner's browser tool —
 * with its cost bounded: {@link inspectForeignSchema}'s limits first, then ajv with a linear-time
 * regex engine and only bounded formats. Compiles are cached by canonical schema text, at most
 * `FOREIGN_SCHEMA_LIMITS.cachedValidators` of them. A schema that may not be compiled is refused
 * as `invalid_input`, its message starting with `subject` and naming the limit.
 */
export function compileForeignSchema(schema: unknown, subject = 'The tool schema'): ForeignSchemaCheck {
  let text: string;
  // Before any text is made of it: a schema too deep or too large is refused without serializing.
  const shape = checkSchemaShape(schema);
  if (shape) throw new DioscError('invalid_input', `${subject} ${shape}.`);
  try {
    text = canonicalJson(schema);
  } catch {
    throw new DioscError('invalid_input', `${subject} is not JSON.`);
  }
  let compiled = cache.get(text);
  if (compiled) {
    cache.delete(text);
  } else {
    compiled = compile(schema, text);
    if (cache.size >= FOREIGN_SCHEMA_LIMITS.cachedValidators) cache.delete(cache.keys().next().value!);
  }
  cache.set(text, compiled);
  if ('refusal' in compiled) throw new DioscError('invalid_input', `${subject} ${compiled.refusal}.`);
  return compiled.check;
}

/** How many compiled schemas (and refusals) are kept: for tests of the bound. */
export function foreignSchemaCacheSize(): number {
  return cache.size;
}
