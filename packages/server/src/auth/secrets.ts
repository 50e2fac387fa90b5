import { hash, randomBytes } from 'node:crypto';

/** A random secret for a token, session ID or password: 32 bytes, base64url. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens are stored only as this digest; the plaintext is shown once and never kept. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
