import type { OwnerBrowserApi } from './owner-api-types.js';
import { createOwnerRequest, type OwnerRequestOptions } from './owner-request.js';

export type OwnerBrowserApiOptions = Omit<OwnerRequestOptions, 'onRefusal'>;

/**
 * The owner API's browser-access endpoints, over `createOwnerRequest`.
 *
 * @example
 * const api = createOwnerBrowserApi({ csrfToken: () => session.csrfToken });
 * const { tools } = await api.descriptors();
 */
export function createOwnerBrowserApi(options: OwnerBrowserApiOptions): OwnerBrowserApi {
  const request = createOwnerRequest(options);

  return {
    session: (signal) => request('GET', '/session', undefined, signal),
    browserAccess: (signal) => request('GET', '/browser-access', undefined, signal),
    enableAccess: (selection, signal) => request('PUT', '/browser-access', { selection }, signal),
    disableAccess: (signal) => request('DELETE', '/browser-access', undefined, signal),
    descriptors: (signal) => request('GET', '/browser-access/descriptors', undefined, signal),
    dispatch: (call, signal) => request('POST', '/browser-access/dispatch', call, signal),
    prepare: (call, signal) => request('POST', '/browser-access/prepare', call, signal),
    acknowledge: (receiptId, digest, signal) =>
      request(
        'POST',
        `/browser-access/receipts/${encodeURIComponent(receiptId)}/acknowledge`,
        { digest },
        signal,
      ),
    execute: (call, signal) => request('POST', '/browser-access/execute', call, signal),
  };
}
