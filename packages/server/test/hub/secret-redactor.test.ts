import { describe, expect, it } from 'vitest';
import { assistantSecretValues, createSecretRedactor } from '../../src/hub/outbound/secret-redactor.js';

describe('the secret redactor', () => {
  const token = 'tok+en/with spaces&0123';
  const redactor = createSecretRedactor([token, undefined, 'short']);

  it('removes a secret as sent, URL-encoded, JSON-escaped and in base64 of it or of its bearer header', () => {
    const bearer = Buffer.from(`Bearer ${token}`);
    for (const form of [
      token,
      encodeURIComponent(token),
      Buffer.from(token).toString('base64'),
      bearer.toString('base64'),
      bearer.toString('base64').replace(/=+$/, ''),
      bearer.toString('base64url'),
    ]) {
      expect(redactor.text(`before ${form} after`), form).toBe('before [redacted] after');
    }
    const quoted = JSON.stringify({ text: 'a "quoted" token: tok"en-0123456789' });
    expect(createSecretRedactor(['tok"en-0123456789']).text(quoted)).not.toContain('tok\\"en-0123456789');
  });

  it('walks values at every depth, keys included, and keeps what is not text', () => {
    const value = { a: [{ [token]: token, n: 1, ok: true, nil: null }], b: `x${token}x` };
    expect(redactor.value(value)).toEqual({
      a: [{ '[redacted]': '[redacted]', n: 1, ok: true, nil: null }],
      b: 'x[redacted]x',
    });
    expect(redactor.error(new Error(`failed for ${token}`))).toBe('failed for [redacted]');
  });

  it('leaves text alone when it holds no secret, and does not shred it for a very short one', () => {
    expect(redactor.text('a short note')).toBe('a short note');
  });

  it('tells a stream how much to hold back: the longest form less one, nothing without secrets', () => {
    const longest = Buffer.from(`Bearer ${token}`).toString('base64').length;
    expect(redactor.holdBack).toBe(longest - 1);
    expect(createSecretRedactor([undefined, 'short']).holdBack).toBe(0);
  });

  it('knows every secret the hub holds for an assistant, and the server’s own provider keys', () => {
    expect(
      assistantSecretValues(
        { providerKey: 'p-key', identitySecret: 'i-secret', mcpTokens: { a: 'm-a', b: 'm-b' } },
        { OPENAI_API_KEY: 'o-key', ANTHROPIC_API_KEY: 'a-key', OTHER: 'not a secret' },
      ).sort(),
    ).toEqual(['a-key', 'i-secret', 'm-a', 'm-b', 'o-key', 'p-key']);
  });

  it('leaves out the secrets an assistant does not have', () => {
    expect(assistantSecretValues({})).toEqual([]);
    expect(assistantSecretValues({ mcpTokens: { a: 'm-a' } }, { OPENAI_API_KEY: undefined })).toEqual([
      'm-a',
    ]);
  });

  it('searches a secret from six characters, and for its trimmed form, never for blanks around a short one', () => {
    expect(createSecretRedactor(['abc123']).text('x abc123 y')).toBe('x [redacted] y');
    expect(createSecretRedactor([' padded-secret \n']).text('got padded-secret.')).toBe('got [redacted].');
    // Six characters only with its blanks: three that matter, too short to search for.
    expect(createSecretRedactor(['  abc ']).text('x  abc y')).toBe('x  abc y');
  });

  it('finds base64 with its padding cut off, whatever the padding was', () => {
    // Its base64 has `+`/`/` (so it differs from base64url) and ends in "==".
    const secret = 'k~~~~~~~~~~~~~~~~~~~~~~~?';
    const padded = Buffer.from(secret).toString('base64');
    expect(padded).toMatch(/[+/].*==$/);
    const bare = padded.replace(/=+$/, '');
    expect(createSecretRedactor([secret]).text(`echo:${bare}!`)).toBe('echo:[redacted]!');
  });

  it('removes a secret that holds another whole, not leaving the outer one’s ends', () => {
    const redactor = createSecretRedactor(['inner-123', 'outer-inner-123-outer']);
    expect(redactor.text('[outer-inner-123-outer]')).toBe('[[redacted]]');
    const reversed = createSecretRedactor(['outer-inner-123-outer', 'inner-123']);
    expect(reversed.text('[outer-inner-123-outer] and inner-123')).toBe('[[redacted]] and [redacted]');
  });

  it('cuts a value nested deeper than 32 levels instead of walking it', () => {
    let nested: unknown = 'abc123 leaf';
    for (let level = 0; level < 40; level++) nested = [nested];
    let walked = createSecretRedactor(['abc123']).value(nested);
    let depth = 0;
    while (Array.isArray(walked)) {
      walked = walked[0];
      depth++;
    }
    expect(depth).toBe(32);
    expect(walked).toBeNull();
    let shallow: unknown = 'abc123 leaf';
    for (let level = 0; level < 31; level++) shallow = { k: shallow };
    let inside = createSecretRedactor(['abc123']).value(shallow) as { k: unknown } | string;
    while (typeof inside === 'object') inside = inside.k as { k: unknown } | string;
    expect(inside).toBe('[redacted] leaf');
  });

  it('redacts a thrown string and any other thrown value as text', () => {
    const redactor = createSecretRedactor(['abc123']);
    expect(redactor.error('abc123 failed')).toBe('[redacted] failed');
    expect(redactor.error({ toString: () => 'object abc123' })).toBe('object [redacted]');
    expect(redactor.error(42)).toBe('42');
  });
});
