import {
  DIALECTS,
  OWNER_PASSWORD,
  openTestStore,
  startTestServer,
  type TestServer,
  type TestStore,
} from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { hashToken } from '../../src/auth/secrets.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/auth/sessions.js';
import { call, callJson, signIn } from './owner-client.js';

const selection = [{ collection: 'notes', functions: ['items_list'] }];

for (const dialect of DIALECTS) {
  describe(`owner sessions (${dialect.name})`, () => {
    let server: TestServer;
    afterEach(() => server.close());

    const sessionRows = () => server.store.db.selectFrom('sessions').selectAll().execute();

    it('signs in with a fresh HttpOnly SameSite=Lax cookie whose ID is stored only as its hash', async () => {
      server = await startTestServer({ dialect });
      const response = await call(server.url, '/session', null, {
        body: { email: 'OWNER@localhost', password: OWNER_PASSWORD },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const setCookie = response.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/^diosc_session=[A-Za-z0-9_-]{43};/);
      expect(setCookie).toMatch(/HttpOnly/);
      expect(setCookie).toMatch(/SameSite=Lax/);
      expect(setCookie).toMatch(/Path=\//);
      const sessionId = /diosc_session=([^;]+)/.exec(setCookie)![1]!;
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        account: { email: 'owner@localhost', displayName: 'Owner' },
        sessionGeneration: 1,
      });
      const rows = await sessionRows();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.id_hash).toBe(hashToken(sessionId));
      expect(JSON.stringify(rows)).not.toContain(sessionId);
    });

    it('refuses a wrong password and an unknown email alike, creating no session', async () => {
      server = await startTestServer({ dialect });
      for (const credentials of [
        { email: 'owner@localhost', password: 'wrong password' },
        { email: 'nobody@localhost', password: OWNER_PASSWORD },
      ]) {
        const refused = await callJson(server.url, '/session', null, { body: credentials });
        expect(refused.status).toBe(401);
        expect(refused.body).toMatchObject({ error: { code: 'invalid_credentials' } });
        expect(refused.headers.get('set-cookie')).toBeNull();
      }
      expect(await sessionRows()).toHaveLength(0);
    });

    it('rotates the ID on every sign-in; the previous session is ended and its cookie refused', async () => {
      server = await startTestServer({ dialect });
      const first = await signIn(server.url);
      await callJson(server.url, '/browser-access', first, { method: 'PUT', body: { selection } });
      const second = await signIn(server.url);
      expect(second.sessionId).not.toBe(first.sessionId);
      expect(second.sessionGeneration).toBeGreaterThan(first.sessionGeneration);
      const stale = await callJson(server.url, '/session', first);
      expect(stale.status).toBe(401);
      expect(stale.body).toMatchObject({ error: { code: 'session_expired' } });
      // The old session's browser access went with it, and the new session starts without any.
      const browserRows = await server.store.db.selectFrom('app_connections').selectAll().execute();
      expect(browserRows).toHaveLength(1);
      expect(browserRows[0]!.revoked_at).not.toBeNull();
      const fresh = await callJson(server.url, '/browser-access', second);
      expect(fresh.body).toMatchObject({ enabled: false, selection: null });
      // A mutation with the old cookie and its own CSRF token changes nothing.
      const refused = await callJson(server.url, '/browser-access', first, {
        method: 'PUT',
        body: { selection },
      });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: { code: 'session_expired' } });
      expect(await server.store.db.selectFrom('app_connections').selectAll().execute()).toEqual(browserRows);
    });

    it('signs out: 204, the cookie stops working, browser access is revoked, the generation rises', async () => {
      server = await startTestServer({ dialect });
      const session = await signIn(server.url);
      await callJson(server.url, '/browser-access', session, { method: 'PUT', body: { selection } });
      const out = await call(server.url, '/session', session, { method: 'DELETE' });
      expect(out.status).toBe(204);
      expect(out.headers.get('cache-control')).toBe('no-store');
      expect(out.headers.get('set-cookie')).toMatch(/diosc_session=;/);
      for (const [path, method] of [
        ['/session', 'GET'],
        ['/browser-access/descriptors', 'GET'],
        ['/session', 'DELETE'],
      ] as const) {
        const stale = await callJson(server.url, path, session, { method });
        expect(stale.status).toBe(401);
        expect(stale.body).toMatchObject({ error: { code: 'session_expired' } });
      }
      const [connection] = await server.store.db.selectFrom('app_connections').selectAll().execute();
      expect(connection!.revoked_at).not.toBeNull();
      const again = await signIn(server.url);
      expect(again.sessionGeneration).toBe(session.sessionGeneration + 2);
      expect((await callJson(server.url, '/browser-access', again)).body).toMatchObject({ enabled: false });
    });

    it('ends a session after the idle timeout, and after the absolute lifetime however active', async () => {
      server = await startTestServer({ dialect });
      const idle = await signIn(server.url);
      server.clock.advance(SESSION_IDLE_MS - 1000);
      expect((await call(server.url, '/session', idle)).status).toBe(200);
      server.clock.advance(SESSION_IDLE_MS);
      const expired = await callJson(server.url, '/session', idle);
      expect(expired.status).toBe(401);
      expect(expired.body).toMatchObject({ error: { code: 'session_expired' } });

      const busy = await signIn(server.url);
      for (let elapsed = 0; elapsed < SESSION_ABSOLUTE_MS - SESSION_IDLE_MS; elapsed += SESSION_IDLE_MS / 2) {
        server.clock.advance(SESSION_IDLE_MS / 2);
        expect((await call(server.url, '/session', busy)).status).toBe(200);
      }
      server.clock.advance(SESSION_IDLE_MS);
      expect((await callJson(server.url, '/session', busy)).body).toMatchObject({
        error: { code: 'session_expired' },
      });
    });

    it('answers no cookie and an unknown cookie with unauthenticated', async () => {
      server = await startTestServer({ dialect });
      expect((await callJson(server.url, '/session', null)).body).toMatchObject({
        error: { code: 'unauthenticated' },
      });
      const forged = await callJson(server.url, '/session', {
        cookie: 'diosc_session=forged',
        csrfToken: 'x',
      });
      expect(forged.status).toBe(401);
      expect(forged.body).toMatchObject({ error: { code: 'unauthenticated' } });
    });

    it('answers the session status with 200 whether signed in, signed out or ended', async () => {
      server = await startTestServer({ dialect });
      const none = await callJson(server.url, '/session/status', null);
      expect(none.status).toBe(200);
      expect(none.headers.get('cache-control')).toBe('no-store');
      expect(none.body).toEqual({ signedIn: false, ended: false });
      expect(
        (await callJson(server.url, '/session/status', null, { headers: { cookie: 'diosc_session=nope' } }))
          .body,
      ).toEqual({
        signedIn: false,
        ended: false,
      });
      const owner = await signIn(server.url);
      const live = await callJson<{ signedIn: boolean; session: Record<string, unknown> }>(
        server.url,
        '/session/status',
        owner,
      );
      expect(live.status).toBe(200);
      expect(live.body.signedIn).toBe(true);
      expect(live.body.session).toEqual({
        account: { id: owner.accountId, email: 'owner@localhost', displayName: 'Owner' },
        csrfToken: expect.any(String),
        sessionGeneration: owner.sessionGeneration,
        startedAt: new Date(server.clock.now()).toISOString(),
        browserTools: true,
      });
      expect((await call(server.url, '/session', owner, { method: 'DELETE' })).status).toBe(204);
      const ended = await callJson(server.url, '/session/status', owner);
      expect(ended.status).toBe(200);
      expect(ended.body).toEqual({ signedIn: false, ended: true });
      // A bearer credential is still refused unread, as on every owner route.
      expect(
        (await call(server.url, '/session/status', null, { headers: { authorization: 'Bearer x' } })).status,
      ).toBe(401);
    });

    it('rate-limits sign-in per client and email', async () => {
      server = await startTestServer({ dialect });
      const attempt = (email: string) =>
        callJson(server.url, '/session', null, { body: { email, password: 'wrong password' } });
      for (let i = 0; i < 10; i += 1) expect((await attempt('owner@localhost')).status).toBe(401);
      const limited = await attempt('owner@localhost');
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ error: { code: 'rate_limited', retryable: true } });
      // Even the right password is refused while limited, and no session is created.
      const right = await callJson(server.url, '/session', null, {
        body: { email: 'owner@localhost', password: OWNER_PASSWORD },
      });
      expect(right.status).toBe(429);
      expect(right.body).toMatchObject({ error: { code: 'rate_limited' } });
      expect(await sessionRows()).toHaveLength(0);
      // Another email from the same client has its own budget.
      expect((await attempt('someone@localhost')).status).toBe(401);
    });

    it('counts failed sign-ins only, but caps any burst of attempts', async () => {
      server = await startTestServer({ dialect });
      for (let i = 0; i < 12; i += 1) await signIn(server.url);
      for (let i = 0; i < 9; i += 1) {
        const wrong = await callJson(server.url, '/session', null, {
          body: { email: 'owner@localhost', password: 'wrong password' },
        });
        expect(wrong.status).toBe(401);
        expect(wrong.body).toMatchObject({ error: { code: 'invalid_credentials' } });
      }
      // 21 attempts so far in this minute; the burst cap is 30.
      for (let i = 0; i < 9; i += 1) await signIn(server.url);
      const sessionsBefore = await sessionRows();
      const burst = await callJson(server.url, '/session', null, {
        body: { email: 'owner@localhost', password: OWNER_PASSWORD },
      });
      expect(burst.status).toBe(429);
      expect(burst.body).toMatchObject({ error: { code: 'rate_limited' } });
      expect(await sessionRows()).toEqual(sessionsBefore);
    });
  });
}

describe('session cookie over https', () => {
  let testStore: TestStore;
  afterEach(() => testStore.close());

  it('takes the __Host- prefix with Secure when the public origin is https', async () => {
    testStore = await openTestStore();
    const origin = 'https://portal.example:8443';
    const app = await buildApp({
      config: { ...testStore.config, publicOrigin: origin },
      store: testStore.store,
      clock: testStore.clock,
      logger: false,
    });
    const response = await app.inject({
      method: 'POST',
      url: '/api/owner/session',
      headers: { origin, 'content-type': 'application/json' },
      payload: { email: 'owner@localhost', password: OWNER_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^__Host-diosc_session=/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Domain=/i);
    // The same origin on the default port is a different origin: refused.
    const otherPort = await app.inject({
      method: 'POST',
      url: '/api/owner/session',
      headers: { origin: 'https://portal.example', 'content-type': 'application/json' },
      payload: { email: 'owner@localhost', password: OWNER_PASSWORD },
    });
    expect(otherPort.statusCode).toBe(403);
    expect(otherPort.json()).toMatchObject({ error: { code: 'forbidden_origin' } });
    expect(otherPort.headers['set-cookie']).toBeUndefined();
    await app.close();
  });
});
