import { CodedError } from './coded-error.js';
import { ERROR_CODES, type ErrorCode } from './codes.js';

/** The JSON body of every refusal on the wire: a stable code and a plain-text message. */
export interface WireError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  retryAfterMs?: number;
  details?: Record<string, unknown>;
}

export interface DioscErrorOptions {
  retryAfterMs?: number;
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * A local, typed error with a stable code, its HTTP status and retryability from the one table.
 * Branded with `Symbol.for` (through `CodedError`) so two bundled copies of a Diosc package still
 * recognise each other's errors (`DioscError.isInstance`).
 */
export class DioscError extends CodedError {
  readonly retryAfterMs: number | undefined;

  constructor(code: ErrorCode, message?: string, options: DioscErrorOptions = {}) {
    super(code, message ?? ERROR_CODES[code].message, options);
    this.retryAfterMs = options.retryAfterMs;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }

  /** A branded error with the table's getters: a `DioscError` of any bundled copy, not a bare `CodedError`. */
  static override isInstance(value: unknown): value is DioscError {
    return CodedError.isInstance(value) && 'status' in value;
  }

  toWire(): WireError {
    const wire: WireError = { code: this.code, message: plainText(this.message), retryable: this.retryable };
    if (this.retryAfterMs !== undefined) wire.retryAfterMs = this.retryAfterMs;
    if (this.details !== undefined) wire.details = this.details;
    return wire;
  }

  static fromWire(wire: WireError): DioscError {
    return new DioscError(wire.code, wire.message, {
      retryAfterMs: wire.retryAfterMs,
      details: wire.details,
    });
  }
}

/**
 * Error text is plain text, kept as written and cut to 1,000 characters. It is data in a JSON
 * string, never markup: whoever shows it escapes it at render time (Lit's text bindings, a
 * terminal, a model's context), so `must be <= 60000` keeps its `<`. Stripping characters here
 * would garble the message and protect nothing a renderer does not already.
 */
export function plainText(message: string): string {
  return message.slice(0, 1000);
}
