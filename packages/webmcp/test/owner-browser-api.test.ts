// @vitest-environment happy-dom
import { DioscError } from '@diosc/protocol';
import { describe, expect, it, vi } from 'vitest';
import {
  createOwnerBrowserApi,
  type OwnerBrowserApi,
  RegistrationFailed,
  TransportFailure,
} from '../src/index.js';

/** A double of `fetch` (the HTTP seam) that records each request and answers with a scripted Response. */
function recordingFetch(answer: () => Response | Promise<Response>) {
  const requests: { url: string; init: RequestInit }[] = [];
  const fetch = async (url: string | URL | Request, init: RequestInit = {}) => {
    requests.push({ url: String(url), init });
    if (init.signal?.aborted) throw init.signal.reason;
    return answer();
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('createOwnerBrowserApi', () => {
  it('sends same-origin cookies, no-store, and the CSRF token on mutations only', async () => {
    const { fetch, requests } = recordingFetch(() => json(200, { result: { ok: true } }));
    let token = 'csrf-1';
    const api = createOwnerBrowserApi({ baseUrl: 'https://hub.test', csrfToken: () => token, fetch });
    await api.descriptors();
    token = 'csrf-2';
    const call = { tool: 'items_list' as const, input: { collection: 'notes' }, generation: 3 };
    expect(await api.dispatch(call)).toEqual({ result: { ok: true } });
    await api.acknowledge('r/1', 'digest');
    const [get, post, ack] = requests;
    expect(get!.url).toBe('https://hub.test/api/owner/browser-access/descriptors');
    expect(get!.init).toMatchObject({ method: 'GET', credentials: 'same-origin', cache: 'no-store' });
    expect(get!.init.headers).not.toHaveProperty('x-csrf-token');
    expect(post!.url).toBe('https://hub.test/api/owner/browser-access/dispatch');
    expect(post!.init).toMatchObject({ method: 'POST', credentials: 'same-origin', cache: 'no-store' });
    expect(post!.init.headers).toMatchObject({
      'x-csrf-token': 'csrf-2',
      'content-type': 'application/json',
    });
    expect(JSON.parse(String(post!.init.body))).toEqual(call);
    expect(ack!.url).toBe('https://hub.test/api/owner/browser-access/receipts/r%2F1/acknowledge');
    expect(JSON.parse(String(ack!.init.body))).toEqual({ digest: 'digest' });
  });

  it('turns a refusal into a DioscError with the server code and an HTML page into plain internal', async () => {
    const refusal = recordingFetch(() =>
      json(409, { error: { code: 'generation_changed', message: 'Reload.', retryable: false } }),
    );
    const api = createOwnerBrowserApi({ csrfToken: () => 'x', fetch: refusal.fetch });
    const error = await api.descriptors().catch((e: unknown) => e);
    expect(DioscError.isInstance(error) && error.code).toBe('generation_changed');

    const html = recordingFetch(() => new Response('<html><b>Bad gateway</b></html>', { status: 502 }));
    const proxied = createOwnerBrowserApi({ csrfToken: () => 'x', fetch: html.fetch });
    const failure = await proxied.descriptors().catch((e: unknown) => e);
    expect(DioscError.isInstance(failure) && failure.code).toBe('internal');
    expect((failure as Error).message).not.toMatch(/[<>]|Bad gateway/);
  });

  it('forwards the abort signal and tells a lost connection apart', async () => {
    const { fetch, requests } = recordingFetch(() => json(200, {}));
    const api = createOwnerBrowserApi({ csrfToken: () => 'x', fetch });
    const controller = new AbortController();
    controller.abort(new DOMException('stop', 'AbortError'));
    const aborted = await api.descriptors(controller.signal).catch((e: unknown) => e);
    expect((aborted as DOMException).name).toBe('AbortError');
    expect(requests[0]!.init.signal).toBe(controller.signal);

    const offline = createOwnerBrowserApi({
      csrfToken: () => 'x',
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof globalThis.fetch,
    });
    expect(await offline.descriptors().catch((e: unknown) => e)).toBeInstanceOf(TransportFailure);
  });
});

describe('the endpoints', () => {
  const call = { tool: 'item_write' as const, input: { collection: 'notes' }, generation: 3 };
  const selection = [{ collection: 'notes', functions: ['items_list' as const] }];
  const cases: [string, (api: OwnerBrowserApi) => Promise<unknown>, string, string, unknown][] = [
    ['session', (api) => api.session(), 'GET', '/api/owner/session', undefined],
    ['browserAccess', (api) => api.browserAccess(), 'GET', '/api/owner/browser-access', undefined],
    ['enableAccess', (api) => api.enableAccess(selection), 'PUT', '/api/owner/browser-access', { selection }],
    ['disableAccess', (api) => api.disableAccess(), 'DELETE', '/api/owner/browser-access', undefined],
    ['descriptors', (api) => api.descriptors(), 'GET', '/api/owner/browser-access/descriptors', undefined],
    ['dispatch', (api) => api.dispatch(call), 'POST', '/api/owner/browser-access/dispatch', call],
    ['prepare', (api) => api.prepare(call), 'POST', '/api/owner/browser-access/prepare', call],
    [
      'acknowledge',
      (api) => api.acknowledge('r-1', 'd-1'),
      'POST',
      '/api/owner/browser-access/receipts/r-1/acknowledge',
      { digest: 'd-1' },
    ],
    [
      'execute',
      (api) => api.execute({ ...call, receiptId: 'r-1' }),
      'POST',
      '/api/owner/browser-access/execute',
      { ...call, receiptId: 'r-1' },
    ],
  ];

  it.each(cases)(
    '%s: %s %s on this origin, answering the parsed body',
    async (_name, send, method, url, body) => {
      const { fetch, requests } = recordingFetch(() => json(200, { answer: 42 }));
      const api = createOwnerBrowserApi({ csrfToken: () => 'csrf', fetch });
      expect(await send(api)).toEqual({ answer: 42 });
      const [request] = requests;
      expect(request!.url).toBe(url);
      expect(request!.init.method).toBe(method);
      expect(request!.init.body === undefined ? undefined : JSON.parse(String(request!.init.body))).toEqual(
        body,
      );
      const headers = request!.init.headers as Record<string, string>;
      expect(headers.accept).toBe('application/json');
      expect('content-type' in headers).toBe(body !== undefined);
      expect('x-csrf-token' in headers).toBe(method !== 'GET');
    },
  );
});

describe('answers that are not a result', () => {
  it('204 is no content; 200 with a non-JSON body is internal, not an empty result', async () => {
    const empty = recordingFetch(() => new Response(null, { status: 204 }));
    const api = createOwnerBrowserApi({ csrfToken: () => 'x', fetch: empty.fetch });
    expect(await api.disableAccess()).toBeUndefined();

    const page = recordingFetch(() => new Response('<html>Portal</html>', { status: 200 }));
    const proxied = createOwnerBrowserApi({ csrfToken: () => 'x', fetch: page.fetch });
    const error = await proxied.descriptors().catch((e: unknown) => e);
    expect(DioscError.isInstance(error) && error.code).toBe('internal');
    expect((error as Error).message).toBe('The server answered 200 without a usable JSON body.');
  });

  it('an error body without a known code or a message is internal, never the body', async () => {
    for (const error of [{ code: 'made_up', message: 'Trust me.' }, { code: 'not_granted' }]) {
      const odd = recordingFetch(() => json(403, { error }));
      const api = createOwnerBrowserApi({ csrfToken: () => 'x', fetch: odd.fetch });
      const refused = await api.descriptors().catch((e: unknown) => e);
      expect(DioscError.isInstance(refused) && refused.code).toBe('internal');
      expect((refused as Error).message).toBe('The server answered 403 without a usable JSON body.');
    }
  });

  it('without a CSRF token a mutation sends an empty header (the server refuses it), never a made-up one', async () => {
    const { fetch, requests } = recordingFetch(() => json(200, {}));
    const api = createOwnerBrowserApi({ csrfToken: () => null, fetch });
    await api.disableAccess();
    expect((requests[0]!.init.headers as Record<string, string>)['x-csrf-token']).toBe('');
  });

  it('an aborted request rejects with the abort reason, whatever fetch threw', async () => {
    const controller = new AbortController();
    const why = new DOMException('The review was closed.', 'AbortError');
    controller.abort(why);
    const api = createOwnerBrowserApi({
      csrfToken: () => 'x',
      fetch: (async () => {
        throw new TypeError('fetch failed');
      }) as typeof globalThis.fetch,
    });
    expect(await api.descriptors(controller.signal).catch((e: unknown) => e)).toBe(why);
  });
});

describe('local errors of the adapter', () => {
  it('are branded: a second bundled copy of @diosc/webmcp recognises them, and each its own code only', async () => {
    vi.resetModules();
    // A fresh module registry evaluates webmcp and protocol again: second classes, as a second bundle has.
    const copy = await import('../src/index.js');
    expect(copy.TransportFailure).not.toBe(TransportFailure);
    const lost = new copy.TransportFailure(new TypeError('Failed to fetch'));
    expect(lost instanceof TransportFailure).toBe(false);
    expect(TransportFailure.isInstance(lost)).toBe(true);
    expect(RegistrationFailed.isInstance(lost)).toBe(false);
    expect(lost).toMatchObject({ code: 'transport_failed', name: 'TransportFailure' });
    expect((lost.cause as Error).message).toBe('Failed to fetch');

    const refused = new copy.RegistrationFailed(
      'item_read',
      new DOMException('Not here.', 'NotAllowedError'),
    );
    expect(RegistrationFailed.isInstance(refused)).toBe(true);
    expect(TransportFailure.isInstance(refused)).toBe(false);
    expect(refused).toMatchObject({ code: 'registration_failed', toolName: 'item_read' });
    expect(refused.message).toBe('Registering item_read failed (NotAllowedError: Not here.).');
    expect(TransportFailure.isInstance(new DioscError('internal'))).toBe(false);
  });
});
