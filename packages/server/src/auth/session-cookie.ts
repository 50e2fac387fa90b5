import type { CookieSerializeOptions } from '@fastify/cookie';

/**
 * The owner session cookie. Over HTTPS it takes the `__Host-` prefix, which browsers accept only
 * with Secure, Path=/ and no Domain — so no sibling subdomain can set or shadow it.
 */
export function sessionCookieName(publicOrigin: string): string {
  return isHttps(publicOrigin) ? '__Host-diosc_session' : 'diosc_session';
}

export function sessionCookieOptions(publicOrigin: string, maxAgeSeconds: number): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: isHttps(publicOrigin),
    maxAge: maxAgeSeconds,
  };
}

function isHttps(publicOrigin: string): boolean {
  return publicOrigin.toLowerCase().startsWith('https:');
}
