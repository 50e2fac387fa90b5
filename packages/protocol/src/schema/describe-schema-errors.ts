import type { ErrorObject } from 'ajv';

/** The first of ajv's errors as one plain-text sentence naming where (`root.a.b`) and what. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined, root = 'body'): string {
  const first = errors?.[0];
  if (!first) return `The ${root} does not match its schema.`;
  const where = first.instancePath === '' ? root : `${root}${first.instancePath.replaceAll('/', '.')}`;
  const extra =
    first.keyword === 'additionalProperties'
      ? ` (${String((first.params as { additionalProperty?: unknown }).additionalProperty)})`
      : '';
  return `${where} ${first.message ?? 'is invalid'}${extra}.`;
}
