import { DioscError } from '@diosc/protocol';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createCsrfToken, newCsrfSecret, verifyCsrfToken } from '../../src/auth/csrf.js';
import { assertMutationProvenance, refuseCrossSite } from '../../src/auth/mutation-guard.js';
import { ownerOf } from '../../src/auth/owner-request.js';
import { isExactOrigin, requestOrigin } from '../../src/auth/request-origin.js';

const PUBLIC = 'http://127.0.0.1:8080';
const requestWith = (headers: Record<string, string | string[]>) =>
  ({ headers }) as unknown as FastifyRequest;

function refusal(run: () => void): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof DioscError)) throw error;
    return { code: error.code, message: error.message };
  }
  throw new Error('nothing was refused');
}

// The rules behind the owner API's Origin and CSRF checks, one by one (the HTTP suites send the
// attacker's requests; these pin each rule's edge so a changed comparison cannot hide behind another).
describe('the request origin', () => {
  it('is the Origin header, else the origin of Referer; an empty Origin counts as none', () => {
    expect(requestOrigin({ origin: 'https://a.example' })).toBe('https://a.example');
    expect(requestOrigin({ referer: 'https://r.example:443/page?q=1' })).toBe('https://r.example');
    expect(requestOrigin({ origin: '', referer: 'https://r.example/page' })).toBe('https://r.example');
    expect(requestOrigin({ origin: 'https://a.example', referer: 'https://r.example/' })).toBe(
      'https://a.example',
    );
  });

  it('is none when absent, unparseable, or sent twice', () => {
    expect(requestOrigin({})).toBeUndefined();
    expect(requestOrigin({ referer: 'not a url' })).toBeUndefined();
    const twice = { origin: ['https://a.example', 'https://b.example'] } as unknown as Record<string, string>;
    expect(requestOrigin(twice)).toBeUndefined();
    const once = { origin: ['https://a.example'] } as unknown as Record<string, string>;
    expect(requestOrigin(once)).toBe('https://a.example');
  });

  it('must equal the public origin in scheme, host and port', () => {
    expect(isExactOrigin('https://a.example', 'https://a.example:443')).toBe(true);
    expect(isExactOrigin('http://a.example', 'https://a.example')).toBe(false);
    expect(isExactOrigin('https://a.example:8443', 'https://a.example')).toBe(false);
    expect(isExactOrigin('https://a.example', 'not a url')).toBe(false);
  });
});

describe('the mutation guard', () => {
  it('refuses a cross-site fetch and lets same-origin through', () => {
    expect(refusal(() => refuseCrossSite(requestWith({ 'sec-fetch-site': 'cross-site' })))).toEqual({
      code: 'cross_site',
      message: 'Cross-site requests to the owner API are refused.',
    });
    expect(() => refuseCrossSite(requestWith({ 'sec-fetch-site': 'same-origin' }))).not.toThrow();
  });

  it('says which origin rule a request broke', () => {
    expect(refusal(() => assertMutationProvenance(requestWith({}), PUBLIC))).toEqual({
      code: 'forbidden_origin',
      message: 'State-changing requests must carry an Origin or Referer header.',
    });
    expect(
      refusal(() => assertMutationProvenance(requestWith({ origin: 'http://127.0.0.1:9999' }), PUBLIC)),
    ).toEqual({
      code: 'forbidden_origin',
      message: 'The request origin is not this server’s public origin.',
    });
  });

  it('takes JSON in any case and with parameters, a bodiless request without a type, and nothing else', () => {
    const ok = (headers: Record<string, string>) =>
      expect(() =>
        assertMutationProvenance(requestWith({ origin: PUBLIC, ...headers }), PUBLIC),
      ).not.toThrow();
    const refused = (headers: Record<string, string>) =>
      expect(
        refusal(() => assertMutationProvenance(requestWith({ origin: PUBLIC, ...headers }), PUBLIC)).code,
      ).toBe('unsupported_media_type');
    ok({ 'content-type': 'Application/JSON ; charset=utf-8' });
    ok({});
    ok({ 'content-length': '0' });
    refused({ 'content-type': 'text/plain' });
    refused({ 'content-type': 'application/x-www-form-urlencoded' });
    refused({ 'content-length': '5' });
    refused({ 'transfer-encoding': 'chunked' });
  });
});

describe('CSRF tokens', () => {
  it('verify only for their own session secret, as a non-empty string', () => {
    const secret = newCsrfSecret();
    const token = createCsrfToken(secret);
    expect(verifyCsrfToken(secret, token)).toBe(true);
    expect(verifyCsrfToken(newCsrfSecret(), token)).toBe(false);
    expect(verifyCsrfToken(secret, '')).toBe(false);
    expect(verifyCsrfToken(secret, { length: 8 })).toBe(false);
    expect(verifyCsrfToken(secret, [token])).toBe(false);
    expect(verifyCsrfToken(secret, `${token}${'a'.repeat(300)}`)).toBe(false);
  });
});

describe('ownerOf', () => {
  it('refuses a request the authentication hook did not sign in', () => {
    const request = { owner: null } as unknown as FastifyRequest;
    expect(refusal(() => ownerOf(request)).code).toBe('unauthenticated');
  });
});
