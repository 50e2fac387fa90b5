import type { HubEventBody } from '@diosc/protocol';
import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/hub/events/event-bus.js';
import { createEventLog } from '../../src/hub/events/event-log.js';
import { seedConversations } from './support/conversations.js';

let test: TestStore | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

const cancelled = (turnId: string): HubEventBody => ({ type: 'turn.cancelled', turnId });

describe.each(DIALECTS)('the event log ($name)', (dialect) => {
  it('appends several events with one statement, numbered on from the log in the order given', async () => {
    test = await openTestStore(dialect);
    const [id, other] = await seedConversations(test.store, test.accountId, 2);
    const bus = createEventBus();
    const heard: number[] = [];
    bus.subscribe(id!, (event) => event && heard.push(event.id));
    const log = createEventLog(test.store.db, { now: () => Date.now() }, bus);
    await log.append(other!, cancelled('t_other'));
    await log.appendAll(id!, [cancelled('t0'), cancelled('t1')]);
    const events = await log.appendAll(id!, [cancelled('t2'), cancelled('t3'), cancelled('t4')]);
    expect(events.map((event) => [event.id, (event as { turnId: string }).turnId])).toEqual([
      [3, 't2'],
      [4, 't3'],
      [5, 't4'],
    ]);
    expect((await log.after(id!, 0)).map((event) => (event as { turnId: string }).turnId)).toEqual([
      't0',
      't1',
      't2',
      't3',
      't4',
    ]);
    expect(heard).toEqual([1, 2, 3, 4, 5]);
    expect(await log.appendAll(id!, [])).toEqual([]);
    expect(await log.lastId(other!)).toBe(1);
  });
});
