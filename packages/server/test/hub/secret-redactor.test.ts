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
});
