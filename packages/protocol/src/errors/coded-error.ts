import type { ErrorCode } from './codes.js';

export const DIOSC_ERROR_BRAND = Symbol.for('diosc.error');

/**
 * A stable code, a plain-text message and the brand — without the HTTP table of `ERROR_CODES`, so
 * a browser bundle does not carry every server message. Browser packages throw this; the server's
 * `DioscError` extends it with the table's status, retryability and wire form. Branded with
 * `Symbol.for`, so two bundled copies still recognise each other's errors (`isInstance`).
 */
export class CodedError extends Error {
  readonly [DIOSC_ERROR_BRAND] = true;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'DioscError';
    this.code = code;
    this.details = options.details;
  }

  static isInstance(value: unknown): value is CodedError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[DIOSC_ERROR_BRAND] === true
    );
  }
}
