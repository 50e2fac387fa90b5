import { DioscError } from '@diosc/protocol';
import type { FastifyRequest } from 'fastify';
import { isExactOrigin, requestOrigin } from './request-origin.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isMutation(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Refuses a request that a browser says was made from another site. Applied to every owner request
 * (reads too: no page on another site has a reason to call the owner API).
 */
export function refuseCrossSite(request: FastifyRequest): void {
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    throw new DioscError('cross_site', 'Cross-site requests to the owner API are refused.');
  }
}

/**
 * The provenance half of the mutation guard (the CSRF half needs the session, so it runs after
 * authentication): exact Origin, JSON only. A form on another site cannot satisfy either.
 */
export function assertMutationProvenance(request: FastifyRequest, publicOrigin: string): void {
  const origin = requestOrigin(request.headers);
  if (origin === undefined) {
    throw new DioscError(
      'forbidden_origin',
      'State-changing requests must carry an Origin or Referer header.',
    );
  }
  if (!isExactOrigin(origin, publicOrigin)) {
    throw new DioscError('forbidden_origin', 'The request origin is not this server’s public origin.');
  }
  const contentType = request.headers['content-type'];
  const hasBody =
    request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
  if (contentType === undefined ? hasBody : !isJson(contentType)) {
    throw new DioscError('unsupported_media_type');
  }
}

function isJson(contentType: string): boolean {
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}
