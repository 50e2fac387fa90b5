import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/hub/events/event-bus.js';
import { createEventLog, type EventLog } from '../../src/hub/events/event-log.js';
import { createLogWatch } from '../../src/hub/events/log-watch.js';
import { seedConversations } from './support/conversations.js';

let test: TestStore | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

/** A store with `count` conversations, and the log as another instance writes it (its own bus). */
async function setup(dialect: (typeof DIALECTS)[number], count: number) {
  test = await openTestStore(dialect);
  const ids = await seedConversations(test.store, test.accountId, count);
  const elsewhere = createEventLog(test.store.db, { now: () => Date.now() }, createEventBus());
  return { store: test.store, ids, elsewhere };
}

/** The log's `newestOf`, counting the statements the watch runs. */
function counted(log: EventLog) {
  const statements: number[] = [];
  return {
    statements,
    newestOf: (conversationIds: readonly string[]) => {
      statements.push(conversationIds.length);
      return log.newestOf(conversationIds);
    },
  };
}

describe.each(DIALECTS)('the log watch ($name)', (dialect) => {
  it('wakes only the conversations whose log grew past what the bus knew, once per growth', async () => {
    const { store, ids, elsewhere } = await setup(dialect, 3);
    const bus = createEventBus();
    const log = createEventLog(store.db, { now: () => Date.now() }, bus);
    const woken: string[] = [];
    for (const id of ids) bus.subscribe(id, (event) => event === undefined && woken.push(id));
    const look = createLogWatch(log, bus, store.dataVersion);

    // An append this process made is known from the bus: nothing to wake for.
    await log.append(ids[0]!, { type: 'turn.cancelled', turnId: 'trn_here' });
    await look();
    expect(woken).toEqual([]);

    // Another instance appends to the second conversation, unannounced.
    await elsewhere.append(ids[1]!, { type: 'turn.cancelled', turnId: 'trn_there' });
    await look();
    expect(woken).toEqual([ids[1]]);
    await look();
    expect(woken).toEqual([ids[1]]);

    await elsewhere.append(ids[1]!, { type: 'turn.cancelled', turnId: 'trn_again' });
    await elsewhere.append(ids[2]!, { type: 'turn.cancelled', turnId: 'trn_third' });
    await look();
    expect(woken.sort()).toEqual([ids[1], ids[1], ids[2]].sort());
  });

  it('reads one statement per 500 watched conversations, and none for a conversation nobody watches', async () => {
    const { store, ids, elsewhere } = await setup(dialect, 1_201);
    const bus = createEventBus();
    const log = counted(createEventLog(store.db, { now: () => Date.now() }, bus));
    const woken = new Set<string>();
    const watchedIds = ids.slice(0, 1_200);
    for (const id of watchedIds) bus.subscribe(id, (event) => event === undefined && woken.add(id));
    const look = createLogWatch(log, bus, store.dataVersion);

    await elsewhere.append(ids[1_199]!, { type: 'turn.cancelled', turnId: 'trn_last' });
    await elsewhere.append(ids[1_200]!, { type: 'turn.cancelled', turnId: 'trn_unwatched' });
    await look();
    expect(log.statements).toEqual([500, 500, 200]);
    expect([...woken]).toEqual([ids[1_199]]);

    // Exactly two statements' worth: no third, empty one.
    const even = createEventBus();
    for (const id of ids.slice(0, 1_000)) even.subscribe(id, () => {});
    log.statements.length = 0;
    await createLogWatch(log, even, store.dataVersion)();
    expect(log.statements).toEqual([500, 500]);
  });
});

describe('the log watch on SQLite’s change counter', () => {
  it('runs no statement while nothing was committed, and looks again after any commit', async () => {
    const { store, ids, elsewhere } = await setup({ name: 'sqlite' }, 2);
    expect(store.dataVersion).toBeTypeOf('function');
    const bus = createEventBus();
    const log = counted(createEventLog(store.db, { now: () => Date.now() }, bus));
    const woken: string[] = [];
    for (const id of ids) bus.subscribe(id, (event) => event === undefined && woken.push(id));
    const look = createLogWatch(log, bus, store.dataVersion);

    await look();
    expect(log.statements).toHaveLength(1);
    for (let index = 0; index < 20; index++) await look();
    expect(log.statements).toHaveLength(1);

    await elsewhere.append(ids[0]!, { type: 'turn.cancelled', turnId: 'trn_there' });
    await look();
    expect(log.statements).toHaveLength(2);
    expect(woken).toEqual([ids[0]]);
    await look();
    expect(log.statements).toHaveLength(2);
  });

  it('without a change counter (PostgreSQL), looks on every interval', async () => {
    const { store, ids } = await setup({ name: 'sqlite' }, 1);
    const bus = createEventBus();
    const log = counted(createEventLog(store.db, { now: () => Date.now() }, bus));
    bus.subscribe(ids[0]!, () => {});
    const look = createLogWatch(log, bus);
    for (let index = 0; index < 3; index++) await look();
    expect(log.statements).toEqual([1, 1, 1]);
  });

  it('looks at nothing when no stream is open', async () => {
    const { store } = await setup({ name: 'sqlite' }, 1);
    const log = counted(createEventLog(store.db, { now: () => Date.now() }, createEventBus()));
    const look = createLogWatch(log, createEventBus(), store.dataVersion);
    await look();
    expect(log.statements).toEqual([]);
  });
});
