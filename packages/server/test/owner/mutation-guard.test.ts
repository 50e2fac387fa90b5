import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Call, callJson, type OwnerSession, signIn } from './owner-client.js';

/**
 * Each refused request is a real mutation (enable browser access, create a connection, sign out)
 * with every credential right except the one under test; afterwards the rows are compared.
 */
describe.each(DIALECTS)('mutation guard ($name)', (dialect) => {
  let server: TestServer;
  let owner: OwnerSession;
  beforeAll(async () => {
    server = await startTestServer({ dialect });
    owner = await signIn(server.url);
  });
  afterAll(() => server.close());

  const snapshot = async () => ({
    connections: await server.store.db.selectFrom('app_connections').selectAll().orderBy('id').execute(),
    sessions: await server.store.db.selectFrom('sessions').selectAll().orderBy('id_hash').execute(),
  });

  const mutations: { name: string; path: string; options: Call }[] = [
    {
      name: 'enable browser access',
      path: '/browser-access',
      options: { method: 'PUT', body: { selection: [{ collection: 'notes', functions: ['items_list'] }] } },
    },
    {
      name: 'create a connection',
      path: '/connections',
      options: {
        method: 'POST',
        body: { displayName: 'x', grant: [{ collection: 'notes', functions: ['items_list'] }] },
      },
    },
    { name: 'sign out', path: '/session', options: { method: 'DELETE' } },
  ];

  async function expectRefused(
    headers: Record<string, string | undefined>,
    status: number,
    code: string,
    session: OwnerSession = owner,
  ) {
    for (const mutation of mutations) {
      const before = await snapshot();
      const refused = await callJson(server.url, mutation.path, session, {
        ...mutation.options,
        headers: { ...mutation.options.headers, ...headers },
      });
      expect(refused.status, mutation.name).toBe(status);
      expect(refused.body, mutation.name).toMatchObject({ error: { code } });
      expect(refused.headers.get('cache-control')).toBe('no-store');
      expect(await snapshot(), mutation.name).toEqual(before);
    }
  }

  it('refuses a wrong Origin: another host, scheme or port', async () => {
    const url = new URL(server.url);
    for (const origin of [
      'https://evil.example',
      `https://${url.host}`,
      `http://${url.hostname}:${Number(url.port) + 1}`,
      `http://localhost:${url.port}`,
      'null',
    ]) {
      await expectRefused({ origin }, 403, 'forbidden_origin');
    }
  });

  it('refuses a mutation with neither Origin nor Referer, and checks Referer when Origin is absent', async () => {
    await expectRefused({ origin: undefined }, 403, 'forbidden_origin');
    await expectRefused({ origin: undefined, referer: 'https://evil.example/page' }, 403, 'forbidden_origin');
    const beforeReferer = await snapshot();
    const viaReferer = await callJson(server.url, '/browser-access', owner, {
      method: 'PUT',
      body: { selection: [{ collection: 'notes', functions: ['items_list'] }] },
      headers: { origin: undefined, referer: `${server.url}/portal/automation` },
    });
    expect(viaReferer.status).toBe(200);
    // Accepted means done: the enablement is stored (the refusals above are not a broken route).
    expect(await snapshot()).not.toEqual(beforeReferer);
    await callJson(server.url, '/browser-access', owner, { method: 'DELETE' });
  });

  it('refuses a missing, wrong or other-session CSRF token, and one sent in the body only', async () => {
    await expectRefused({ 'x-csrf-token': undefined }, 403, 'csrf_failed');
    await expectRefused({ 'x-csrf-token': 'not-a-token' }, 403, 'csrf_failed');
    await expectRefused({ 'x-csrf-token': `${owner.csrfToken.slice(0, -2)}xx` }, 403, 'csrf_failed');
    // The token of another session (here: the previous one, replaced by a new sign-in) never verifies.
    const previousToken = owner.csrfToken;
    owner = await signIn(server.url);
    await expectRefused({ 'x-csrf-token': previousToken }, 403, 'csrf_failed');
    const before = await snapshot();
    const inBody = await callJson(server.url, '/connections', owner, {
      body: {
        displayName: 'x',
        grant: [{ collection: 'notes', functions: ['items_list'] }],
        csrfToken: owner.csrfToken,
      },
      headers: { 'x-csrf-token': undefined },
    });
    expect(inBody.status).toBe(403);
    expect(inBody.body).toMatchObject({ error: { code: 'csrf_failed' } });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses Sec-Fetch-Site: cross-site (reads too), and accepts same-origin', async () => {
    await expectRefused({ 'sec-fetch-site': 'cross-site' }, 403, 'cross_site');
    const read = await callJson(server.url, '/connections', owner, {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(read.status).toBe(403);
    expect(read.body).toMatchObject({ error: { code: 'cross_site' } });
    expect(JSON.stringify(read.body)).not.toContain('connections');
    const sameOrigin = await callJson(server.url, '/connections', owner, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.body).toMatchObject({ connections: expect.any(Array) });
  });

  it('refuses form and text bodies with 415', async () => {
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', 'selection=notes'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
      ],
      ['text/plain', '{"selection":[{"collection":"notes","functions":["items_list"]}]}'],
    ] as const) {
      await expectRefused({ 'content-type': type }, 415, 'unsupported_media_type');
      const before = await snapshot();
      const refused = await callJson(server.url, '/browser-access', owner, {
        method: 'PUT',
        body,
        headers: { 'content-type': type },
      });
      expect(refused.status).toBe(415);
      expect(refused.body).toMatchObject({ error: { code: 'unsupported_media_type' } });
      expect(await snapshot()).toEqual(before);
    }
  });

  it('refuses a body without a content type', async () => {
    const before = await snapshot();
    const response = await fetch(`${server.url}/api/owner/browser-access`, {
      method: 'PUT',
      headers: { origin: server.url, cookie: owner.cookie, 'x-csrf-token': owner.csrfToken },
      body: new Uint8Array(Buffer.from('{"selection":[{"collection":"notes","functions":["items_list"]}]}')),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses sign-in from another origin or site before checking the password', async () => {
    const body = { email: 'owner@localhost', password: 'anything' };
    const before = await snapshot();
    const wrongOrigin = await callJson(server.url, '/session', null, {
      body,
      headers: { origin: 'https://evil.example' },
    });
    expect(wrongOrigin.status).toBe(403);
    expect(wrongOrigin.body).toMatchObject({ error: { code: 'forbidden_origin' } });
    const crossSite = await callJson(server.url, '/session', null, {
      body,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toMatchObject({ error: { code: 'cross_site' } });
    expect(await snapshot()).toEqual(before);
  });
});
