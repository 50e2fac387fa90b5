import { CLIENT_TOOL_NAME_PATTERN, isObject } from '@diosc/protocol';

/** Why a field is refused: a catalogue key under `assistants.invalid.` and its values. */
export interface Problem {
  key: string;
  params?: Record<string, string | number>;
}

const problem = (key: string, params?: Problem['params']): Problem => ({
  key,
  ...(params ? { params } : {}),
});

/**
 * An exact origin as the hub compares it: `scheme://host[:port]` with http or https, nothing after
 * the authority (no path, not even `/`, no query, fragment or credentials), and written the way a
 * browser would send it in `Origin` (lower-case host, no default port) — or the owner is told which
 * part to drop.
 */
export function originProblem(text: string): Problem | null {
  const value = text.trim();
  if (value === '') return problem('originEmpty');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return problem('originNotUrl', { value });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return problem('originScheme', { value });
  if (url.username || url.password) return problem('originCredentials', { value });
  if (value.includes('*')) return problem('originWildcard', { value });
  if (url.origin !== value) {
    if (url.pathname !== '/' || url.search || url.hash || value.endsWith('/'))
      return problem('originPath', { value, origin: url.origin });
    return problem('originCanonical', { value, origin: url.origin });
  }
  return null;
}

/** The origins of a one-per-line text area, each refused with its line number. */
export function parseOrigins(text: string): { origins: string[]; problems: Problem[] } {
  const origins: string[] = [];
  const problems: Problem[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const found = originProblem(line);
    if (found) problems.push({ key: found.key, params: { ...found.params, line: index + 1 } });
    else if (origins.includes(line.trim()))
      problems.push(problem('originTwice', { value: line.trim(), line: index + 1 }));
    else origins.push(line.trim());
  });
  if (origins.length > 32) problems.push(problem('originsTooMany', { max: 32 }));
  return { origins, problems };
}

const TOOL_NAME = new RegExp(CLIENT_TOOL_NAME_PATTERN);

export function toolNameProblem(name: string, taken: readonly string[] = []): Problem | null {
  if (name === '') return problem('toolNameEmpty');
  if (!TOOL_NAME.test(name)) return problem('toolName', { value: name });
  if (taken.includes(name)) return problem('toolNameTaken', { value: name });
  return null;
}

const SCHEMA_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/** Walks a schema for the mistakes a tool's input schema must not have; the first one, with where. */
function schemaShapeProblem(schema: Record<string, unknown>, at: string): Problem | null {
  const { type, properties, required, items } = schema;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  for (const each of types)
    if (typeof each !== 'string' || !SCHEMA_TYPES.has(each))
      return problem('schemaType', { at, value: String(each) });
  if (properties !== undefined) {
    if (!isObject(properties)) return problem('schemaProperties', { at });
    for (const [name, inner] of Object.entries(properties)) {
      if (!isObject(inner)) return problem('schemaNotObject', { at: `${at}.${name}` });
      const found = schemaShapeProblem(inner, `${at}.${name}`);
      if (found) return found;
    }
  }
  if (required !== undefined) {
    if (!Array.isArray(required) || required.some((name) => typeof name !== 'string'))
      return problem('schemaRequired', { at });
    const missing = required.find((name) => !isObject(properties) || !(name in properties));
    if (missing !== undefined) return problem('schemaRequiredUnknown', { at, value: String(missing) });
  }
  if (items !== undefined) {
    if (!isObject(items)) return problem('schemaNotObject', { at: `${at}[]` });
    return schemaShapeProblem(items, `${at}[]`);
  }
  return null;
}

/**
 * A browser tool's input schema from the text the owner typed: JSON, an object schema at the root
 * (the model calls a tool with named arguments), and well-formed `type`/`properties`/`required`.
 */
export function parseToolSchema(text: string): { schema: Record<string, unknown> } | { problem: Problem } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      problem: problem('schemaJson', { detail: error instanceof Error ? error.message : String(error) }),
    };
  }
  if (!isObject(value)) return { problem: problem('schemaNotObject', { at: 'schema' }) };
  if (value.type !== 'object') return { problem: problem('schemaRoot') };
  const found = schemaShapeProblem(value, 'schema');
  return found ? { problem: found } : { schema: value };
}

/** A whole number within `[min, max]` from a form field, or why not. */
export function integerProblem(text: string, min: number, max: number): Problem | null {
  if (!/^\d+$/.test(text.trim())) return problem('integer', { min, max });
  const value = Number(text);
  if (value < min || value > max) return problem('range', { min, max });
  return null;
}

/** An MCP server's name (what prefixes its tools) and URL. */
export function mcpServerProblems(
  name: string,
  url: string,
  taken: readonly string[],
): {
  name: Problem | null;
  url: Problem | null;
} {
  const nameProblem = !/^[a-z][a-z0-9_]{0,31}$/.test(name)
    ? problem('mcpName')
    : taken.includes(name)
      ? problem('mcpNameTaken', { value: name })
      : null;
  let urlProblem: Problem | null = null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') urlProblem = problem('mcpUrl');
  } catch {
    urlProblem = problem('mcpUrl');
  }
  return { name: nameProblem, url: urlProblem };
}

/** The first problem of each route field, keyed `route-<field>-<index>`; the hub checks the rest. */
export function routeProblems(
  routes: readonly { path: string; title: string; description?: string }[],
): Record<string, Problem> {
  const problems: Record<string, Problem> = {};
  const seen = new Map<string, number>();
  routes.forEach((route, index) => {
    const path = route.path.trim();
    if (!path.startsWith('/')) problems[`route-path-${index}`] = { key: 'routePath' };
    else if (/[?#\s]/.test(path)) problems[`route-path-${index}`] = { key: 'routePathQuery' };
    else if (seen.has(path))
      problems[`route-path-${index}`] = { key: 'routeTwice', params: { line: seen.get(path)! + 1 } };
    seen.set(path, index);
    if (route.title.trim() === '') problems[`route-title-${index}`] = { key: 'routeTitle' };
    else if (route.title.length > 200)
      problems[`route-title-${index}`] = { key: 'tooLong', params: { max: 200 } };
    if ((route.description ?? '').length > 1000)
      problems[`route-description-${index}`] = { key: 'tooLong', params: { max: 1000 } };
  });
  return problems;
}
