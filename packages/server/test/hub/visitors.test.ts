import { SignJWT } from 'jose';
import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, HubClient, type HubTestServer, startHubServer } from './support/hub-server.js';
import { rowCounts } from './support/rows.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const code = (body: unknown) => (body as { error?: { code?: string } }).error?.code;
const SECRET = 'an-identity-secret-of-at-least-32-characters';

describeOnDialects('visitor sessions', () => {
  it('opens a session only for an allowed origin and a known key, storing the token hashed', async () => {
    server = await startHubServer();
    const key = server.assistant.publishableKey;
    const before = await rowCounts(server.store);
    for (const [origin, publishableKey, expected] of [
      ['http://evil.localhost:4173', key, 'origin_not_allowed'],
      [`${server.pageOrigin}.evil.example`, key, 'origin_not_allowed'],
      [server.pageOrigin, 'pk_doesnotexist000', 'unknown_assistant'],
    ] as const) {
      const reply = await new HubClient(server.url, origin).request('POST', '/sessions', { publishableKey });
      expect([reply.status, code(reply.body)]).toEqual([
        expected === 'origin_not_allowed' ? 403 : 401,
        expected,
      ]);
    }
    const noOrigin = await fetch(`${server.url}/api/hub/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ publishableKey: key }),
    });
    expect(code(await noOrigin.json())).toBe('origin_not_allowed');
    const extra = await server.client().request('POST', '/sessions', { publishableKey: key, admin: true });
    expect(code(extra.body)).toBe('invalid_input');
    expect(await rowCounts(server.store)).toEqual(before);

    const view = await server.client().open(key);
    expect(view.token).toMatch(/^vst_/);
    expect(view.assistant).toEqual({
      id: server.assistant.id,
      name: 'Test assistant',
      browserTools: [],
      files: expect.objectContaining({ enabled: true }),
      modelLabel: expect.stringContaining('scripted'),
      outsideLinks: false,
    });
    const rows = await server.store.db.selectFrom('hub_visitor_sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(view.token);
  });

  it('limits session creation per address (rate_limited, nothing stored)', async () => {
    server = await startHubServer();
    const statuses: number[] = [];
    for (let index = 0; index < 31; index++) {
      const reply = await server
        .client()
        .request('POST', '/sessions', { publishableKey: server.assistant.publishableKey });
      statuses.push(reply.status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 201)).toBe(true);
    expect(statuses[30]).toBe(429);
    const rows = await server.store.db.selectFrom('hub_visitor_sessions').select('id').execute();
    expect(rows).toHaveLength(30);
  });

  it('answers CORS preflights for allowed origins only', async () => {
    server = await startHubServer();
    const preflight = (origin: string) =>
      fetch(`${server!.url}/api/hub/sessions`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const allowed = await preflight(server.pageOrigin);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(server.pageOrigin);
    const denied = await preflight('http://evil.localhost:4173');
    expect(denied.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses calls without a token, with a wrong one, from another origin, and after expiry', async () => {
    server = await startHubServer({ assistant: { limits: { sessionTtlMs: 60_000 } } });
    const client = server.client();
    await client.open(server.assistant.publishableKey);
    const conversation = await client.conversation();
    const before = await rowCounts(server.store);

    const anonymous = new HubClient(server.url, server.pageOrigin);
    expect(code((await anonymous.request('POST', '/conversations', {})).body)).toBe('unauthenticated');
    anonymous.token = 'vst_forged-token';
    expect(code((await anonymous.request('GET', `/conversations/${conversation}`)).body)).toBe(
      'unauthenticated',
    );
    const elsewhere = new HubClient(server.url, 'http://evil.localhost:4173');
    elsewhere.token = client.token;
    expect(code((await elsewhere.send(conversation, { text: 'hi' })).body)).toBe('origin_not_allowed');
    // A cookie is never a credential here.
    const cookie = await fetch(`${server.url}/api/hub/conversations`, {
      headers: { origin: server.pageOrigin, cookie: `token=${client.token}` },
    });
    expect(cookie.status).toBe(401);
    expect(await cookie.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    expect(await rowCounts(server.store)).toEqual(before);

    await server.store.db
      .updateTable('hub_visitor_sessions')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    const expired = await client.send(conversation, { text: 'hi' });
    // The kit opens a new session on this code; the message says so to anyone else.
    expect([expired.status, expired.body]).toEqual([
      401,
      {
        error: expect.objectContaining({
          code: 'session_expired',
          message: 'The visitor session has expired; open a new one.',
        }),
      },
    ]);
    expect(await rowCounts(server.store)).toEqual(before);
  });

  it('isolates visitors: another visitor’s conversation is not found, and lists stay separate', async () => {
    server = await startHubServer();
    const { client: alice, conversation, stream } = await server.visit();
    await alice.send(conversation, { text: 'my secret plan' });
    await stream.until('turn.done');
    stream.close();

    const mallory = server.client();
    await mallory.open(server.assistant.publishableKey);
    const before = await rowCounts(server.store);
    expect((await mallory.view(conversation)).status).toBe(404);
    expect((await mallory.send(conversation, { text: 'hijack' })).status).toBe(404);
    const events = await fetch(`${server.url}/api/hub/conversations/${conversation}/events`, {
      headers: {
        origin: server.pageOrigin,
        authorization: `Bearer ${mallory.token}`,
        accept: 'text/event-stream',
      },
    });
    expect(events.status).toBe(404);
    const missing = await events.json();
    expect(missing).toMatchObject({ error: { code: 'not_found' } });
    expect(JSON.stringify(missing)).not.toContain('secret');
    expect(
      (await mallory.request<{ conversations: unknown[] }>('GET', '/conversations')).body.conversations,
    ).toEqual([]);
    expect(await rowCounts(server.store)).toEqual(before);

    // A session of another assistant cannot reach it either, even with the same visitor id.
    const other = await server.createAssistant({
      name: 'Other',
      model: { provider: 'scripted', id: 'test' },
      allowedOrigins: [server.pageOrigin],
    });
    const eve = server.client();
    await eve.open(other.publishableKey);
    expect((await eve.view(conversation)).status).toBe(404);
  });

  it('ties conversations to a host-signed identity across sessions, and refuses a bad signature', async () => {
    server = await startHubServer({ assistant: { secrets: { identitySecret: SECRET } } });
    const sign = (secret: string, sub = 'user-17', exp = '10m') =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(secret));
    const first = server.client();
    const view = await first.open(server.assistant.publishableKey, await sign(SECRET));
    expect(view.visitorId).toBe('user:user-17');
    const conversation = await first.conversation();

    const second = server.client();
    await second.open(server.assistant.publishableKey, await sign(SECRET));
    expect((await second.view(conversation)).status).toBe(200);

    const before = await rowCounts(server.store);
    for (const identity of [await sign('x'.repeat(40)), await sign(SECRET, 'user-17', '-1m'), 'not-a-jwt']) {
      const reply = await server
        .client()
        .request('POST', '/sessions', { publishableKey: server.assistant.publishableKey, identity });
      expect([reply.status, code(reply.body)]).toEqual([401, 'identity_invalid']);
    }
    expect(await rowCounts(server.store)).toEqual(before);
  });

  it('refuses an identity without exp, or whose sub is not a plain string (no session, no row)', async () => {
    server = await startHubServer({ assistant: { secrets: { identitySecret: SECRET } } });
    const key = new TextEncoder().encode(SECRET);
    const signed = (claims: Record<string, unknown>) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().sign(key);
    const exp = Math.floor(Date.now() / 1000) + 600;
    const cases: [string, Record<string, unknown>][] = [
      ['no exp', { sub: 'user-17' }],
      ['no sub', { exp }],
      ['a number', { sub: 42, exp }],
      ['an empty string', { sub: '', exp }],
      ['too long', { sub: 'u'.repeat(129), exp }],
      ['a control character', { sub: 'user\u0001', exp }],
      ['a space', { sub: 'user 17', exp }],
      ['an array', { sub: ['user-17'], exp }],
      ['an object', { sub: { id: 'user-17' }, exp }],
      ['null', { sub: null, exp }],
    ];
    const before = await rowCounts(server.store);
    for (const [label, claims] of cases) {
      const reply = await server.client().request('POST', '/sessions', {
        publishableKey: server.assistant.publishableKey,
        identity: await signed(claims),
      });
      expect([label, reply.status, code(reply.body)]).toEqual([label, 401, 'identity_invalid']);
      expect((reply.body as { error: { message: string } }).error.message.length, label).toBeGreaterThan(10);
    }
    expect(await rowCounts(server.store)).toEqual(before);
    // The string "42" is a user id like any other; the number 42 above was never read as it.
    const view = await server
      .client()
      .open(server.assistant.publishableKey, await signed({ sub: '42', exp }));
    expect(view.visitorId).toBe('user:42');
  });
});
