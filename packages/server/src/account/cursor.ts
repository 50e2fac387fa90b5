import { DioscError } from '@diosc/protocol';

/** Opaque keyset cursors: base64url JSON of the last row's sort key. */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<T extends readonly (string | number)[]>(
  cursor: string,
  shape: readonly ('string' | 'number')[],
): T {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(key) &&
      key.length === shape.length &&
      key.every((part, i) => typeof part === shape[i])
    ) {
      return key as unknown as T;
    }
  } catch {
    // fall through to the typed refusal
  }
  throw new DioscError('invalid_input', 'input.cursor is not a cursor this server issued.');
}
