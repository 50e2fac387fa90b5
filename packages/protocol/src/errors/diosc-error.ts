import { ERROR_CODES, type ErrorCode } from './codes.js';

const marker = Symbol.for('diosc.error');

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
 * A local, typed error with a stable code. Branded with `Symbol.for` so two bundled copies of a
 * Diosc package still recognise each other's errors (`DioscError.isInstance`).
 */
export class DioscError extends Error {
  readonly [marker] = true;
  readonly code: ErrorCode;
  readonly retryAfterMs: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, options: DioscErrorOptions = {}) {
    super(message ?? ERROR_CODES[code].message, { cause: options.cause });
    this.name = 'DioscError';
    this.code = code;
    this.retryAfterMs = options.retryAfterMs;
    this.details = options.details;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }

  static isInstance(value: unknown): value is DioscError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
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

/** Error text is plain text: markup is removed so a message can never become HTML. */
export function plainText(message: string): string {
  return message
    .replace(/<[^>]*>/g, '')
    .replace(/[<>]/g, '')
    .slice(0, 1000);
}
