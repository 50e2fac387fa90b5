import { DioscError } from '@diosc/protocol';

/**
 * Reads a JSON request body as an object with only the named fields. Unknown fields are refused,
 * not ignored, so a field that a caller believes carries authority never passes silently.
 */
export function bodyObject(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  const value = body === undefined || body === null ? {} : body;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new DioscError('invalid_input', 'The request body must be a JSON object.');
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new DioscError('invalid_input', `Unknown field "${key.slice(0, 64)}".`);
  }
  return value as Record<string, unknown>;
}

export function stringField(body: Record<string, unknown>, key: string, max = 256): string {
  const value = body[key];
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new DioscError(
      'invalid_input',
      `"${key}" must be a non-empty string of at most ${max} characters.`,
    );
  }
  return value;
}

export function optionalInteger(
  body: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
): number | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new DioscError('invalid_input', `"${key}" must be an integer from ${min} to ${max}.`);
  }
  return value;
}
