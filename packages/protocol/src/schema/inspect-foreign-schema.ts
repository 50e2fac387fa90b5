import { RE2JS } from 're2js';
import { isObject } from '../is-object.js';
import { FOREIGN_SCHEMA_FORMATS, FOREIGN_SCHEMA_LIMITS } from './foreign-schema-limits.js';

/** Keywords whose value is one subschema (or, for `items`, a list of them). */
const ONE_SCHEMA = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAP = new Set(['$defs', 'definitions', 'dependencies', 'dependentSchemas', 'properties']);
/** Keywords that would resolve references outside JSON pointers into this very schema. */
const REFUSED_KEYWORDS = new Set(['$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor']);

const FORMATS: ReadonlySet<string> = new Set(FOREIGN_SCHEMA_FORMATS);

/**
 * Depth and node count of any JSON value, iteratively (a hostile depth cannot overflow the stack
 * here), stopping as soon as a limit is passed; a predicate phrase, or undefined within limits.
 */
export function checkSchemaShape(root: unknown): string | undefined {
  const stack: [unknown, number][] = [[root, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > FOREIGN_SCHEMA_LIMITS.maxDepth)
      return `is nested deeper than ${FOREIGN_SCHEMA_LIMITS.maxDepth} levels`;
    const children = Array.isArray(value) ? value : Object.values(value);
    nodes += children.length;
    if (nodes > FOREIGN_SCHEMA_LIMITS.maxKeywords)
      return `has more than ${FOREIGN_SCHEMA_LIMITS.maxKeywords} keywords and items`;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return undefined;
}

function checkPattern(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return undefined;
  const shown = JSON.stringify(pattern.slice(0, 80));
  if (pattern.length > FOREIGN_SCHEMA_LIMITS.maxPatternChars)
    return `has a pattern longer than ${FOREIGN_SCHEMA_LIMITS.maxPatternChars} characters`;
  try {
    RE2JS.compile(pattern);
  } catch {
    return `has the pattern ${shown}, which a linear-time regular expression engine cannot run (no backreferences, lookaround or \\u escapes)`;
  }
  return undefined;
}

/** The node a local JSON pointer (`#`, `#/a/b`) names inside `root`, or undefined. */
function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(token) ? node[Number(token)] : undefined;
    else if (isObject(node) && Object.hasOwn(node, token)) node = node[token];
    else return undefined;
  }
  return node;
}

function countNodes(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + 1 + countNodes(item), 0);
  if (isObject(value))
    return Object.values(value).reduce((sum: number, item) => sum + 1 + countNodes(item), 0);
  return 0;
}

class Refusal extends Error {}

/**
 * Why a JSON Schema from outside may not be compiled, or undefined when it may: its shape (depth,
 * size), its keywords counted with every local `$ref` expanded (a recursive reference is refused, a
 * reference outside the schema is refused), each pattern (short, and compilable by the linear-time
 * engine that will run it) and each `format` (one of {@link FOREIGN_SCHEMA_FORMATS}). The reason
 * is a predicate phrase for "The schema …".
 */
export function inspectForeignSchema(schema: unknown): string | undefined {
  const shape = checkSchemaShape(schema);
  if (shape) return shape;
  const weights = new Map<object, number>();
  const inProgress = new Set<object>();

  const weigh = (node: unknown, isRoot: boolean): number => {
    if (!isObject(node)) return Array.isArray(node) ? countNodes(node) : 0;
    const known = weights.get(node);
    if (known !== undefined) return known;
    if (inProgress.has(node)) throw new Refusal('has a recursive $ref');
    inProgress.add(node);
    let weight = 0;
    for (const [key, value] of Object.entries(node)) {
      weight += 1;
      if (REFUSED_KEYWORDS.has(key)) throw new Refusal(`uses ${key}, which is not supported`);
      if (key === '$id' && !isRoot) throw new Refusal('declares $id below its root, which is not supported');
      if (key === 'pattern') {
        const problem = checkPattern(value);
        if (problem) throw new Refusal(problem);
      } else if (key === 'format' && typeof value === 'string') {
        if (!FORMATS.has(value))
          throw new Refusal(
            `uses the format ${JSON.stringify(value.slice(0, 40))}; only ${FOREIGN_SCHEMA_FORMATS.join(', ')} are supported`,
          );
      } else if (key === '$ref' && typeof value === 'string') {
        const target = resolvePointer(schema, value);
        if (target === undefined)
          throw new Refusal(
            `has the $ref ${JSON.stringify(value.slice(0, 80))}; only a JSON pointer into the schema itself is supported`,
          );
        weight += weigh(target, false);
      } else if (ONE_SCHEMA.has(key) && !Array.isArray(value)) {
        weight += weigh(value, false);
      } else if ((SCHEMA_LIST.has(key) || key === 'items') && Array.isArray(value)) {
        for (const item of value) weight += 1 + weigh(item, false);
      } else if (key === 'patternProperties' && isObject(value)) {
        for (const [pattern, sub] of Object.entries(value)) {
          const problem = checkPattern(pattern);
          if (problem) throw new Refusal(problem);
          weight += 1 + weigh(sub, false);
        }
      } else if (SCHEMA_MAP.has(key) && isObject(value)) {
        for (const sub of Object.values(value)) weight += 1 + weigh(sub, false);
      } else {
        weight += countNodes(value);
      }
      if (weight > FOREIGN_SCHEMA_LIMITS.maxKeywords)
        throw new Refusal(
          `has more than ${FOREIGN_SCHEMA_LIMITS.maxKeywords} keywords and items with its $refs expanded`,
        );
    }
    inProgress.delete(node);
    weights.set(node, weight);
    return weight;
  };

  try {
    weigh(schema, true);
  } catch (error) {
    if (error instanceof Refusal) return error.message;
    throw error;
  }
  return undefined;
}
