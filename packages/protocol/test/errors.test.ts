import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { CodedError } from '../src/errors/coded-error.js';
import { ERROR_CODES, type ErrorCode, errorCodes, isErrorCode } from '../src/errors/codes.js';
import { DioscError, plainText } from '../src/errors/diosc-error.js';
import { isLocalErrorCode, LOCAL_ERROR_CODES, localErrorCodes } from '../src/errors/local-codes.js';
import { LocalError } from '../src/errors/local-error.js';

const DOC = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

/** The rows of the table in docs/errors.md: | `code` | status | yes/no | meaning | (cells may be padded). */
function documentedCodes() {
  const rows = new Map<string, { status: number; retryable: boolean; meaning: string }>();
  for (const line of DOC.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const code = /^`([a-z_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!code || cells.length !== 6) continue;
    expect(cells[2], code).toMatch(/^\d{3}$/);
    expect(cells[3], code).toMatch(/^(yes|no)$/);
    expect(rows.has(code), `${code} is documented twice`).toBe(false);
    rows.set(code, { status: Number(cells[2]), retryable: cells[3] === 'yes', meaning: cells[4]! });
  }
  return rows;
}

describe('error table', () => {
  it('documents every code in docs/errors.md with its status and retryability, and nothing else', () => {
    const documented = documentedCodes();
    expect([...documented.keys()].sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const [code, row] of documented) {
      const entry = ERROR_CODES[code as ErrorCode];
      expect({ code, status: row.status, retryable: row.retryable }).toEqual({
        code,
        status: entry.status,
        retryable: entry.retryable,
      });
      expect(row.meaning.length).toBeGreaterThan(20);
    }
  });

  it('has codes that are snake_case, statuses that are HTTP errors, and plain-text default messages', () => {
    for (const code of errorCodes) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      const { status, message } = ERROR_CODES[code];
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
      expect(plainText(message)).toBe(message);
      expect(isErrorCode(code)).toBe(true);
    }
    expect(isErrorCode('nope')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });
});

/** The rows of the "Local errors" table: | `code` | thrown as | meaning | (no status: never on the wire). */
function documentedLocalCodes() {
  const section = DOC.slice(DOC.indexOf('## Local errors'));
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const code = /^`([a-z_]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!code || cells.length !== 5) continue;
    expect(rows.has(code), `${code} is documented twice`).toBe(false);
    rows.set(code, cells[3]!);
  }
  return rows;
}

describe('local error table', () => {
  it('documents every local code in docs/errors.md, and nothing else; no code is both local and wire', () => {
    expect(DOC).toContain('## Local errors');
    const documented = documentedLocalCodes();
    expect([...documented.keys()].sort()).toEqual(Object.keys(LOCAL_ERROR_CODES).sort());
    for (const meaning of documented.values()) expect(meaning.length).toBeGreaterThan(20);
    for (const code of localErrorCodes) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(isErrorCode(code), `${code} is also a wire code`).toBe(false);
      expect(isLocalErrorCode(code)).toBe(true);
      expect(plainText(LOCAL_ERROR_CODES[code].message)).toBe(LOCAL_ERROR_CODES[code].message);
    }
    expect(isLocalErrorCode('internal')).toBe(false);
  });

  it('LocalError is branded: a separate copy of the module recognises it, look-alikes are refused', async () => {
    vi.resetModules();
    const copy = await import('../src/errors/local-error.js');
    expect(copy.LocalError).not.toBe(LocalError);
    const foreign = new copy.LocalError('transport_failed', undefined, {
      cause: new TypeError('Failed to fetch'),
    });
    expect(foreign instanceof LocalError).toBe(false);
    expect(LocalError.isInstance(foreign)).toBe(true);
    expect(LocalError.hasCode(foreign, 'transport_failed')).toBe(true);
    expect(LocalError.hasCode(foreign, 'registration_failed')).toBe(false);
    expect(foreign.message).toBe(LOCAL_ERROR_CODES.transport_failed.message);
    expect(LocalError.isInstance(new DioscError('internal'))).toBe(false);
    expect(LocalError.isInstance(Object.assign(new Error('x'), { code: 'transport_failed' }))).toBe(false);
    expect(LocalError.isInstance(null)).toBe(false);
  });
});

describe('DioscError', () => {
  it('carries a typed code, the table status and retryability, and the default message', () => {
    const error = new DioscError('busy', undefined, { retryAfterMs: 250 });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('busy');
    expect(error.status).toBe(503);
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(ERROR_CODES.busy.message);
    expect(error.toWire()).toEqual({
      code: 'busy',
      message: ERROR_CODES.busy.message,
      retryable: true,
      retryAfterMs: 250,
    });
  });

  it('keeps a message as written, < and > included (renderers escape), cut to 1,000 characters', () => {
    expect(
      new DioscError('invalid_input', 'body.limits.sessionTtlMs must be <= 60000.').toWire().message,
    ).toBe('body.limits.sessionTtlMs must be <= 60000.');
    const markup = 'No item <script>alert(1)</script> named <b>x</b> <';
    expect(new DioscError('not_found', markup).toWire().message).toBe(markup);
    expect(plainText('x'.repeat(5000))).toHaveLength(1000);
  });

  it('round-trips through its wire form', () => {
    const original = new DioscError('precondition_failed', 'Stale.', { details: { currentVersion: '3' } });
    const back = DioscError.fromWire(JSON.parse(JSON.stringify(original.toWire())));
    expect(back.code).toBe('precondition_failed');
    expect(back.details).toEqual({ currentVersion: '3' });
    expect(back.message).toBe('Stale.');
  });

  it('recognises errors from a structurally separate copy of the package (isInstance, not instanceof)', async () => {
    vi.resetModules();
    // A fresh module registry evaluates the module again: a second class, as a second bundle would have.
    const copy = await import('../src/errors/diosc-error.js');
    expect(copy.DioscError).not.toBe(DioscError);
    const foreign = new copy.DioscError('in_flight');
    expect(foreign instanceof DioscError).toBe(false);
    expect(DioscError.isInstance(foreign)).toBe(true);
    expect(copy.DioscError.isInstance(new DioscError('in_flight'))).toBe(true);
    // Look-alikes without the brand are not Diosc errors.
    expect(DioscError.isInstance(Object.assign(new Error('x'), { code: 'busy' }))).toBe(false);
    expect(DioscError.isInstance({ code: 'busy', message: 'x' })).toBe(false);
    expect(DioscError.isInstance(null)).toBe(false);
    expect(DioscError.isInstance('busy')).toBe(false);
  });
});

describe('CodedError (the table-free base browser packages throw)', () => {
  it('shares the brand: every DioscError is a CodedError, but a bare CodedError has no table getters', () => {
    const coded = new CodedError('not_found', 'No answer.', { details: { attempt: 2 } });
    expect(coded).toBeInstanceOf(Error);
    expect([coded.name, coded.code, coded.message, coded.details]).toEqual([
      'DioscError',
      'not_found',
      'No answer.',
      { attempt: 2 },
    ]);
    expect(CodedError.isInstance(coded)).toBe(true);
    expect(DioscError.isInstance(coded)).toBe(false);
    expect(CodedError.isInstance(new DioscError('busy'))).toBe(true);
    expect(CodedError.isInstance({ code: 'busy' })).toBe(false);
  });
});
