/** A JSON-object-like value: not null, not an array. The one test every package uses. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
