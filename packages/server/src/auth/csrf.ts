import Tokens from '@fastify/csrf';

/**
 * CSRF tokens bound to one session: each session has its own secret (`sessions.csrf_secret`), so a
 * token minted for one session never verifies against another. Tokens are salted HMACs of the
 * secret (`@fastify/csrf`); any number can be minted, all verify while the session lives.
 */
const tokens = new Tokens({ userInfo: false });

export function newCsrfSecret(): string {
  return tokens.secretSync();
}

export function createCsrfToken(secret: string): string {
  return tokens.create(secret);
}

export function verifyCsrfToken(secret: string, token: unknown): boolean {
  return typeof token === 'string' && token.length > 0 && token.length <= 256 && tokens.verify(secret, token);
}
