import { DIALECTS, type HubTestServer, OWNER_PASSWORD, startHubServer } from '@diosc/server/testing';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../../src/hub/cluster/pg-signals.js';
import { createEventBus } from '../../src/hub/events/event-bus.js';
import { createEventLog } from '../../src/hub/events/event-log.js';
import { createScriptedModel } from '../../src/hub/model/scripted/scripted-model.js';
import type { TurnRunner } from '../../src/hub/turns/turn-runner.js';
import type { Store } from '../../src/store/dialect.js';
import { type SecondInstance, startSecondInstance } from './support/second-instance.js';

/** Long enough that no stream in these tests reads its log unless something wakes it. */
const NO_POLL_MS = 3_600_000;
const READ_PAGE = { tools: ['read_page'], intents: [] };

let server: HubTestServer | undefined;
let second: SecondInstance | undefined;
afterEach(async () => {
  await second?.close();
  await server?.close();
  server = undefined;
  second = undefined;
});

/** The listening connections of this store's instances, as PostgreSQL sees them. */
async function listenerPids(store: Store): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`
    select pid from pg_stat_activity
    where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`.execute(store.db);
  return rows.map((row) => Number(row.pid));
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const POSTGRES = DIALECTS.filter((dialect) => dialect.name === 'postgres');

describe.each(POSTGRES)('instances on one PostgreSQL, woken by NOTIFY ($name)', (dialect) => {
  it('a turn waiting on A is answered on B and continues there; A’s stream hears it by NOTIFY alone', async () => {
    server = await startHubServer({
      dialect,
      script: [{ toolCalls: [{ toolName: 'read_page', input: {} }] }, { text: 'Finished on B.' }],
      hub: { eventPollMs: NO_POLL_MS },
    });
    second = await startSecondInstance(server, { eventPollMs: NO_POLL_MS });
    expect(server.app.diosc.hub!.services.signals.mode).toBe('notify');
    const { client, conversation, stream } = await server.visit();
    const sent = await client.send(conversation, { text: 'read', registry: READ_PAGE });
    const { interrupt } = await stream.until('interrupt');

    const onB = second.clientAs(client);
    expect((await onB.answer(interrupt.id, { result: { content: 'page' } })).body).toEqual({
      status: 'accepted',
    });
    const { message } = await stream.until('message');
    expect(message.text).toBe('Finished on B.');
    await stream.until('turn.done');
    // The second step ran on B: A's runner never leased the turn again.
    const turn = await server.store.db
      .selectFrom('hub_turns')
      .select(['status', 'lease_owner'])
      .where('id', '=', sent.body.turnId)
      .executeTakeFirstOrThrow();
    expect(turn).toEqual({ status: 'done', lease_owner: null });
    const ids = stream.events.map((event) => event.id);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
    stream.close();
  });

  it('a turn left runnable wakes the runner of another instance by NOTIFY (no sweep)', async () => {
    const HOUR_MS = 60 * 60 * 1000;
    server = await startHubServer({
      dialect,
      script: [{ toolCalls: [{ toolName: 'read_page', input: {} }] }, { text: 'Woken by a signal.' }],
      hub: { sweepIntervalMs: HOUR_MS, eventPollMs: NO_POLL_MS },
    });
    second = await startSecondInstance(server, { sweepIntervalMs: HOUR_MS, eventPollMs: NO_POLL_MS });
    const { client, conversation, stream } = await server.visit();
    const sent = await client.send(conversation, { text: 'read', registry: READ_PAGE });
    const { interrupt } = await stream.until('interrupt');
    // Answered in the store and made runnable with nobody scheduled anywhere, as when the runner
    // that held the lease released it: only B's signal can get the turn going.
    await server.store.db
      .updateTable('hub_tool_calls')
      .set({ status: 'done', output_json: JSON.stringify({ type: 'json', value: { content: 'page' } }) })
      .where('id', '=', interrupt.id)
      .execute();
    await server.store.db
      .updateTable('hub_turns')
      .set({ status: 'running' })
      .where('id', '=', sent.body.turnId)
      .execute();
    second.app.diosc.hub!.services.signals.send({ kind: 'runnable', turnId: sent.body.turnId });
    const { message } = await stream.until('message');
    expect(message.text).toBe('Woken by a signal.');
    await stream.until('turn.done');
    expect(server.model.calls).toHaveLength(2);
    stream.close();
  });

  it('a cancel on B aborts the model step running on A', async () => {
    // A slow step (a pause between stream parts), so the cancel lands while it streams.
    const slow = createScriptedModel([{ text: 'one two three four five six seven eight' }], {
      chunkDelayMs: 2_000,
    });
    server = await startHubServer({
      dialect,
      assistant: { model: { provider: 'scripted', id: 'slow' } },
      hub: { scriptedModels: { slow } },
    });
    const { client, conversation, stream } = await server.visit();
    const sent = await client.send(conversation, { text: 'talk slowly' });
    await stream.until('text.delta');
    // B starts only now that A runs the step: started earlier, its runner could claim the turn
    // first (it was seen doing so on a loaded machine), and the step would not be A's to abort.
    second = await startSecondInstance(server, { scriptedModels: { slow } });
    const runnerA = server.app.diosc.hub!.runner as TurnRunner;
    expect(runnerA.activeCount).toBe(1);
    expect((await second.clientAs(client).cancel(sent.body.turnId)).status).toBe(200);
    await stream.until('turn.cancelled');
    await until(async () => (runnerA.activeCount === 0 ? true : undefined), 'A to stop the step');
    // Aborted, not finished: the step's reply was never stored, and it streamed no more than it had.
    const roles = await server.store.db
      .selectFrom('hub_messages')
      .select('role')
      .where('conversation_id', '=', conversation)
      .execute();
    expect(roles.map((row) => row.role)).toEqual(['user']);
    expect(stream.ofType('message')).toEqual([]);
    expect(slow.calls).toHaveLength(1);
    stream.close();
  }, 60_000);

  it('recovers a dropped notification from the log (the fallback poll)', async () => {
    const dropped: string[] = [];
    server = await startHubServer({
      dialect,
      script: [{ toolCalls: [{ toolName: 'read_page', input: {} }] }, { text: 'Heard anyway.' }],
      hub: {
        eventPollMs: 200,
        // Every event signal from B is lost on its way to A.
        dropSignal: (signal) => {
          if (signal.kind !== 'events') return false;
          dropped.push(signal.conversationId);
          return true;
        },
      },
    });
    second = await startSecondInstance(server, { eventPollMs: NO_POLL_MS });
    const { client, conversation, stream } = await server.visit();
    await client.send(conversation, { text: 'read', registry: READ_PAGE });
    const { interrupt } = await stream.until('interrupt');
    await second.clientAs(client).answer(interrupt.id, { result: { content: 'page' } });
    const { message } = await stream.until('message');
    expect(message.text).toBe('Heard anyway.');
    await stream.until('turn.done');
    expect(dropped.length).toBeGreaterThan(0);
    expect(new Set(dropped)).toEqual(new Set([conversation]));
    const ids = stream.events.map((event) => event.id);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, index) => index + 1));
    stream.close();
  });

  it('reconnects a lost listening connection and reads the log for what it missed meanwhile', async () => {
    server = await startHubServer({ dialect, hub: { eventPollMs: NO_POLL_MS } });
    second = await startSecondInstance(server, { eventPollMs: NO_POLL_MS });
    const { conversation, stream } = await server.visit();
    const before = await listenerPids(server.store);
    expect(before).toHaveLength(2);

    // Written with no signal at all, so nothing tells A's stream; the poll is off.
    const silent = createEventLog(server.store.db, { now: () => Date.now() }, createEventBus());
    await silent.append(conversation, { type: 'turn.cancelled', turnId: 'trn_missed' });
    // The server drops every listening connection (a restart, a failover, an admin).
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`.execute(
      server.store.db,
    );
    const after = await until(async () => {
      const pids = await listenerPids(server!.store);
      return pids.length === 2 && pids.every((pid) => !before.includes(pid)) ? pids : undefined;
    }, 'both instances to listen again');
    expect(after).toHaveLength(2);
    // Back: the gap is recovered from the log…
    expect(await stream.until('turn.cancelled', (event) => event.turnId === 'trn_missed')).toMatchObject({
      id: 1,
    });
    // …and B's next append arrives by NOTIFY again.
    await second.app.diosc.hub!.services.events.append(conversation, {
      type: 'turn.cancelled',
      turnId: 'trn_after',
    });
    expect(await stream.until('turn.cancelled', (event) => event.turnId === 'trn_after')).toMatchObject({
      id: 2,
    });
    stream.close();
  });
});

describe.each(POSTGRES)('limits shared by the instances of one PostgreSQL ($name)', (dialect) => {
  /** A sign-in on `url`, from the page of the server's public origin (the same for both instances). */
  const signIn = (url: string, password: string) =>
    fetch(`${url}/api/owner/session`, {
      method: 'POST',
      headers: { origin: server!.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@localhost', password }),
    });

  it('counts failed sign-ins on A and B against one budget', async () => {
    server = await startHubServer({ dialect });
    second = await startSecondInstance(server);
    // Ten failures, five on each instance: each alone would still allow five more.
    for (let attempt = 0; attempt < 10; attempt++) {
      const reply = await signIn(attempt % 2 === 0 ? server.url : second.url, 'wrong password');
      expect(reply.status).toBe(401);
    }
    const sessionsBefore = await server.store.db.selectFrom('sessions').select('id_hash').execute();
    for (const url of [server.url, second.url]) {
      const limited = await signIn(url, OWNER_PASSWORD);
      expect(limited.status).toBe(429);
      expect(await limited.json()).toMatchObject({ error: { code: 'rate_limited', retryable: true } });
    }
    // Refused before the password was tried: no session was created.
    expect(await server.store.db.selectFrom('sessions').select('id_hash').execute()).toEqual(sessionsBefore);
  });

  it('counts a visitor’s messages on A and B against one budget', async () => {
    server = await startHubServer({
      dialect,
      script: [{ text: 'one' }, { text: 'two' }],
      assistant: { limits: { messagesPerMinute: 2 } },
    });
    second = await startSecondInstance(server);
    const { client, conversation, stream } = await server.visit();
    const onB = second.clientAs(client);
    expect((await client.send(conversation, { text: 'first' })).status).toBe(202);
    await stream.until('turn.done');
    expect((await onB.send(conversation, { text: 'second' })).status).toBe(202);
    await stream.until('message', (event) => event.message.text === 'two');
    await stream.until('turn.done', (event) => event.turnId !== stream.ofType('turn.done')[0]!.turnId);
    // A third message, to A, which has counted only one itself.
    const third = await client.send(conversation, { text: 'third' });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ error: { code: 'rate_limited' } });
    const users = await server.store.db
      .selectFrom('hub_messages')
      .select('role')
      .where('conversation_id', '=', conversation)
      .where('role', '=', 'user')
      .execute();
    expect(users).toHaveLength(2);
    stream.close();
  });
});

describe('one process on SQLite', () => {
  it('keeps the in-process bus: no listening connection, signals go nowhere', async () => {
    server = await startHubServer({ dialect: { name: 'sqlite' } });
    const hub = server.app.diosc.hub!.services;
    expect(hub.signals.mode).toBe('local');
    expect(hub.eventPollMs).toBe(2_000);
    const { conversation, stream } = await server.visit();
    await hub.events.append(conversation, { type: 'turn.cancelled', turnId: 'trn_local' });
    expect(await stream.until('turn.cancelled')).toMatchObject({ id: 1, turnId: 'trn_local' });
    stream.close();
  });
});
