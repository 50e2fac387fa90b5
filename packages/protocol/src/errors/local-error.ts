import { isLocalErrorCode, LOCAL_ERROR_CODES, type LocalErrorCode } from './local-codes.js';

const marker = Symbol.for('diosc.local-error');

/**
 * A local error with a stable code (`local-codes.ts`), branded like `DioscError`: a bundle that
 * carries its own copy of a Diosc package still recognises it (`isInstance`, never `instanceof`).
 * Subclasses name one code each and narrow `isInstance` to it.
 */
export class LocalError extends Error {
  readonly [marker] = true;
  readonly code: LocalErrorCode;

  constructor(code: LocalErrorCode, message?: string, options: { cause?: unknown } = {}) {
    super(message ?? LOCAL_ERROR_CODES[code].message, { cause: options.cause });
    this.name = 'LocalError';
    this.code = code;
  }

  static isInstance(value: unknown): value is LocalError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true &&
      isLocalErrorCode((value as { code?: unknown }).code)
    );
  }

  /** A local error with this code, from any copy of the package. */
  static hasCode<C extends LocalErrorCode>(value: unknown, code: C): value is LocalError & { code: C } {
    return LocalError.isInstance(value) && value.code === code;
  }
}
