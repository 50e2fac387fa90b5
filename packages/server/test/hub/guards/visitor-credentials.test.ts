import { SignJWT } from 'jose';
import { afterEach, expect, it } from 'vitest';
import { describeOnDialects, HubClient, type HubTestServer, startHubServer } from '../support/hub-server.js';
import { rowCounts } from '../support/rows.js';

let server: HubTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SECRET = 'an-identity-secret-of-at-least-32-characters';
type ErrorBody = { error?: { code?: string; message?: string } };
const errorOf = (body: unknown) => (body as ErrorBody).error;

/** A host-signed identity as a host would mint it, with each part open to being wrong. */
function identity(
  options: { secret?: string; alg?: string; sub?: string | null; exp?: string | null } = {},
): Promise<string> {
  const jwt = new SignJWT({}).setProtectedHeader({ alg: options.alg ?? 'HS256' }).setIssuedAt();
  if (options.sub !== null) jwt.setSubject(options.sub ?? 'user-17');
  if (options.exp !== null) jwt.setExpirationTime(options.exp ?? '10m');
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET));
}

/**
 * The visitor's credentials from the attacker's side: the bearer header's exact form, the session's
 * expiry to the millisecond, the origin binding, and each claim of a host-signed identity. Every
 * refusal carries its stable code and message and stores nothing.
 */
describeOnDialects('visitor credentials', () => {
  it('takes the session token only as the whole of a `Bearer` header', async () => {
    server = await startHubServer();
    const client = server.client();
    await client.open(server.assistant.publishableKey);
    const token = client.token!;
    const before = await rowCounts(server.store);
    for (const authorization of [
      `Bearer ${token} trailing`,
      `Basic Bearer ${token}`,
      `bearer ${token}`,
      `Bearer  ${token}`,
      `Bearer ${token}!`,
      // The token without its prefix, and one too long to be a token: refused unread.
      `Bearer ${token.slice('vst_'.length)}`,
      `Bearer vst_${'a'.repeat(125)}`,
    ]) {
      const reply = await client.request('POST', '/conversations', {}, { authorization });
      expect([reply.status, errorOf(reply.body)], authorization).toEqual([
        401,
        { code: 'unauthenticated', message: expect.any(String), retryable: false },
      ]);
    }
    // Without a `vst_` prefix, or over the length a token has, it is refused as no token at all.
    for (const authorization of [`Bearer ${token.slice('vst_'.length)}`, `Bearer vst_${'a'.repeat(125)}`]) {
      const reply = await client.request('POST', '/conversations', {}, { authorization });
      expect(errorOf(reply.body)?.message, authorization).toBe('A visitor session token is required.');
    }
    // A token of exactly 128 characters is read (and found to be no session).
    const longest = await client.request(
      'POST',
      '/conversations',
      {},
      { authorization: `Bearer vst_${'a'.repeat(124)}` },
    );
    expect(errorOf(longest.body)?.message).toBe('The visitor session token is not valid.');
    expect(await rowCounts(server.store)).toEqual(before);
    expect((await client.request('POST', '/conversations', {})).status).toBe(201);
  });

  it('serves a call without an Origin (no browser) but refuses one from any other origin', async () => {
    server = await startHubServer();
    const client = server.client();
    await client.open(server.assistant.publishableKey);
    const conversation = await client.conversation();
    const before = await rowCounts(server.store);
    const other = new HubClient(server.url, `${server.pageOrigin}.evil.example`);
    other.token = client.token;
    const refused = await other.request('GET', `/conversations/${conversation}`);
    expect([refused.status, errorOf(refused.body)?.code, errorOf(refused.body)?.message]).toEqual([
      403,
      'origin_not_allowed',
      'This session was opened by another origin.',
    ]);
    expect(await rowCounts(server.store)).toEqual(before);

    const reply = await fetch(`${server.url}/api/hub/conversations/${conversation}`, {
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ id: conversation });
  });

  it('ends a session at its expiry to the millisecond, and prunes exactly the expired ones', async () => {
    server = await startHubServer({ realClock: false, assistant: { limits: { sessionTtlMs: 60_000 } } });
    const client = server.client();
    await client.open(server.assistant.publishableKey);
    const conversation = await client.conversation();
    const visitors = server.app.diosc.hub!.services.visitors;

    server.clock.advance(60_000 - 1);
    expect((await client.view(conversation)).status).toBe(200);
    expect(await visitors.pruneExpired()).toBe(0);

    server.clock.advance(1);
    const before = await rowCounts(server.store);
    const expired = await client.send(conversation, { text: 'hi' });
    expect([expired.status, errorOf(expired.body)?.code]).toEqual([401, 'session_expired']);
    expect(await rowCounts(server.store)).toEqual(before);
    expect(await visitors.pruneExpired()).toBe(1);
    const gone = await client.view(conversation);
    expect([gone.status, errorOf(gone.body)?.code]).toEqual([401, 'unauthenticated']);
  });

  it("accepts the hub's own public origin as every assistant's preview origin, and no look-alike", async () => {
    server = await startHubServer();
    const key = server.assistant.publishableKey;
    const preview = await new HubClient(server.url, server.url).request<{ token: string }>(
      'POST',
      '/sessions',
      {
        publishableKey: key,
      },
    );
    expect(preview.status).toBe(201);
    expect(preview.body.token).toMatch(/^vst_/);
    const before = await rowCounts(server.store);
    for (const origin of [`${server.url}.evil.example`, server.url.replace('127.0.0.1', 'localhost')]) {
      const reply = await new HubClient(server.url, origin).request('POST', '/sessions', {
        publishableKey: key,
      });
      expect([reply.status, errorOf(reply.body)?.code], origin).toEqual([403, 'origin_not_allowed']);
    }
    expect(await rowCounts(server.store)).toEqual(before);
  });

  it('refuses an identity whose algorithm, expiry or subject is not as required, storing nothing', async () => {
    server = await startHubServer({ assistant: { secrets: { identitySecret: SECRET } } });
    const key = server.assistant.publishableKey;
    const open = (identityToken: string) =>
      server!.client().request<{ visitorId: string }>('POST', '/sessions', {
        publishableKey: key,
        identity: identityToken,
      });
    const unverified = 'The signed visitor identity could not be verified.';
    const notPlain = 'The identity subject is not a plain user id.';
    const before = await rowCounts(server.store);
    for (const [label, token, message] of [
      // Only HS256: the same secret under another HMAC is still refused.
      ['HS512', await identity({ alg: 'HS512' }), unverified],
      ['HS384', await identity({ alg: 'HS384' }), unverified],
      // `exp` and `sub` are required claims.
      ['no exp', await identity({ exp: null }), unverified],
      ['no sub', await identity({ sub: null }), unverified],
      ['expired', await identity({ exp: '-1m' }), unverified],
      // A subject becomes part of the visitor id: plain characters, 1 to 128 of them.
      ['spaces', await identity({ sub: 'user 17' }), notPlain],
      ['markup', await identity({ sub: 'a<b>' }), notPlain],
      ['trailing junk', await identity({ sub: 'user-17!' }), notPlain],
      ['leading junk', await identity({ sub: '!user-17' }), notPlain],
      ['129 characters', await identity({ sub: 'u'.repeat(129) }), notPlain],
      ['empty', await identity({ sub: '' }), notPlain],
    ] as const) {
      const reply = await open(token);
      expect([reply.status, errorOf(reply.body)?.code, errorOf(reply.body)?.message], label).toEqual([
        401,
        'identity_invalid',
        message,
      ]);
    }
    expect(await rowCounts(server.store)).toEqual(before);

    const longest = await open(await identity({ sub: `${'u'.repeat(120)}_.@:-Az9` }));
    expect([longest.status, longest.body.visitorId]).toEqual([201, `user:${'u'.repeat(120)}_.@:-Az9`]);
    // Within the 30-second tolerance a just-expired identity still opens a session.
    const justExpired = await open(await identity({ exp: '-10s' }));
    expect(justExpired.status).toBe(201);
  });

  it('refuses any identity for an assistant without an identity secret, storing nothing', async () => {
    server = await startHubServer();
    const before = await rowCounts(server.store);
    for (const secret of [SECRET, 'x']) {
      const reply = await server.client().request('POST', '/sessions', {
        publishableKey: server.assistant.publishableKey,
        identity: await identity({ secret }),
      });
      expect([reply.status, errorOf(reply.body)?.code, errorOf(reply.body)?.message]).toEqual([
        401,
        'identity_invalid',
        'This assistant does not accept signed identities.',
      ]);
    }
    expect(await rowCounts(server.store)).toEqual(before);
  });
});
