import { Writable } from 'node:stream';
import { DIALECTS, OWNER_PASSWORD, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';

describe.each(DIALECTS)('log lines ($name)', (dialect) => {
  let testStore: TestStore;
  afterEach(() => testStore.close());

  it('carry no password, session ID, CSRF token or bearer token, even on refusals', async () => {
    testStore = await openTestStore(dialect);
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const origin = 'http://portal.test';
    const app = await buildApp({
      config: { ...testStore.config, publicOrigin: origin, logLevel: 'trace' },
      store: testStore.store,
      clock: testStore.clock,
      logger: { stream, level: 'trace' },
    });
    const json = { origin, 'content-type': 'application/json' };
    const signedIn = await app.inject({
      method: 'POST',
      url: '/api/owner/session',
      headers: json,
      payload: { email: 'owner@localhost', password: OWNER_PASSWORD },
    });
    const sessionId = /diosc_session=([^;]+)/.exec(String(signedIn.headers['set-cookie']))![1]!;
    const { csrfToken } = signedIn.json() as { csrfToken: string };
    const owner = { ...json, cookie: `diosc_session=${sessionId}`, 'x-csrf-token': csrfToken };
    const created = await app.inject({
      method: 'POST',
      url: '/api/owner/connections',
      headers: owner,
      payload: { displayName: 'Agent', grant: [{ collection: 'notes', functions: ['items_list'] }] },
    });
    const { token } = created.json() as { token: string };
    await app.inject({
      method: 'GET',
      url: '/api/owner/connections',
      headers: { authorization: `Bearer ${token}` },
    });
    await app.inject({
      method: 'POST',
      url: `/mcp?access_token=${token}`,
      headers: { ...owner },
      payload: {},
    });
    await app.inject({
      method: 'PUT',
      url: '/api/owner/browser-access',
      headers: { ...owner, 'x-csrf-token': `${csrfToken}x` },
      payload: { selection: [] },
    });
    await app.inject({ method: 'DELETE', url: '/api/owner/session', headers: owner });
    await app.close();
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(5);
    for (const secret of [OWNER_PASSWORD, sessionId, csrfToken, token, token.slice(4)]) {
      expect(log).not.toContain(secret);
    }
  });
});
