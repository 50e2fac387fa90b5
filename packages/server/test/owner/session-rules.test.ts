import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/secrets.js';
import { createSessions, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/auth/sessions.js';

const TOUCH_EVERY_MS = 15_000;

// The session rules at their edges, on a manual clock over a real store: the last millisecond a
// session lives, the first it is over, and when `last_seen_at` is written.
describe.each(DIALECTS)('session rules at their edges ($name)', (dialect) => {
  let test: TestStore;
  afterEach(() => test.close());

  async function open() {
    test = await openTestStore(dialect);
    const sessions = createSessions(test.store.db, test.clock);
    const row = (idHash: string) =>
      test.store.db
        .selectFrom('sessions')
        .selectAll()
        .where('id_hash', '=', idHash)
        .executeTakeFirstOrThrow();
    return { sessions, row };
  }

  it('refuses an empty or over-long ID as unknown without looking it up', async () => {
    const { sessions } = await open();
    expect(await sessions.resolve('')).toEqual({ status: 'unknown' });
    expect(await sessions.resolve('x'.repeat(129))).toEqual({ status: 'unknown' });
    expect(await sessions.resolve('no-such-session')).toEqual({ status: 'unknown' });
  });

  it('writes last_seen_at only once TOUCH_EVERY_MS has passed', async () => {
    const { sessions, row } = await open();
    const { sessionId, session } = await sessions.start(test.accountId);
    const started = test.clock.now();
    test.clock.advance(TOUCH_EVERY_MS - 1);
    expect(await sessions.resolve(sessionId)).toMatchObject({
      status: 'live',
      session: { last_seen_at: started },
    });
    expect(Number((await row(session.id_hash)).last_seen_at)).toBe(started);
    test.clock.advance(1);
    expect(await sessions.resolve(sessionId)).toMatchObject({
      status: 'live',
      session: { last_seen_at: started + TOUCH_EVERY_MS },
    });
    expect(Number((await row(session.id_hash)).last_seen_at)).toBe(started + TOUCH_EVERY_MS);
  });

  it('lives until the last idle millisecond and is ended, in the store, at the idle limit', async () => {
    const { sessions, row } = await open();
    const { sessionId, session } = await sessions.start(test.accountId);
    test.clock.advance(SESSION_IDLE_MS - 1);
    expect((await sessions.resolve(sessionId)).status).toBe('live');
    test.clock.advance(SESSION_IDLE_MS);
    expect(await sessions.resolve(sessionId)).toEqual({ status: 'ended' });
    expect(Number((await row(session.id_hash)).ended_at)).toBe(test.clock.now());
    expect(await sessions.isLive(session.id_hash)).toBe(false);
  });

  it('ends at the absolute limit however often it is used', async () => {
    const { sessions, row } = await open();
    const { sessionId, session } = await sessions.start(test.accountId);
    const expiresAt = test.clock.now() + SESSION_ABSOLUTE_MS;
    while (test.clock.now() + 20 * 60_000 < expiresAt) {
      test.clock.advance(20 * 60_000);
      expect((await sessions.resolve(sessionId)).status).toBe('live');
    }
    test.clock.advance(expiresAt - 1 - test.clock.now());
    expect(await sessions.isLive(session.id_hash)).toBe(true);
    expect((await sessions.resolve(sessionId)).status).toBe('live');
    test.clock.advance(1);
    expect(await sessions.isLive(session.id_hash)).toBe(false);
    expect(await sessions.resolve(sessionId)).toEqual({ status: 'ended' });
    expect(Number((await row(session.id_hash)).ended_at)).toBe(expiresAt);
  });

  it('isLive is false for an unknown hash and for a signed-out session', async () => {
    const { sessions } = await open();
    const { session } = await sessions.start(test.accountId);
    expect(await sessions.isLive(session.id_hash)).toBe(true);
    expect(await sessions.isLive(hashToken('someone else'))).toBe(false);
    await sessions.end(session);
    expect(await sessions.isLive(session.id_hash)).toBe(false);
  });

  it('the generation is the highest over the rows: sign-in and sign-out each raise it', async () => {
    const { sessions } = await open();
    const before = await sessions.generationOf(test.accountId);
    const first = await sessions.start(test.accountId);
    expect(await sessions.generationOf(test.accountId)).toBe(before + 1);
    expect(await sessions.end(first.session)).toBe(before + 2);
    await sessions.start(test.accountId);
    expect(await sessions.generationOf(test.accountId)).toBe(before + 3);
    expect(await sessions.generationOf('no-such-account')).toBe(0);
  });

  it('ending every session of an account that has none ends nothing and does not fail', async () => {
    const { sessions } = await open();
    const { session } = await sessions.start(test.accountId);
    expect(await sessions.endAll(test.accountId)).toBe(1);
    expect(await sessions.isLive(session.id_hash)).toBe(false);
    expect(await sessions.endAll(test.accountId)).toBe(0);
  });
});
