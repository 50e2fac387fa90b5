import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import type { KyselyPlugin } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/hub/events/event-bus.js';
import { createEventLog } from '../../src/hub/events/event-log.js';
import { seedConversations } from './support/conversations.js';

let test: TestStore | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

const unique = (code: string) => Object.assign(new Error('duplicate key'), { code });

/**
 * Fails the next inserts with the given errors before they reach the store, as a lost race for the
 * next id does (another appender took it); counts the statements.
 */
function raceOf(failures: Error[]) {
  const seen = { inserts: 0, statements: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      seen.statements++;
      if (node.kind === 'InsertQueryNode') {
        seen.inserts++;
        const failure = failures.shift();
        if (failure) throw failure;
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { plugin, seen };
}

describe.each(DIALECTS)('the event log under a lost race for the next id ($name)', (dialect) => {
  async function setup(failures: Error[]) {
    test = await openTestStore(dialect);
    const clock = { now: () => Date.now() };
    const [conversation] = await seedConversations(test.store, test.accountId, 1);
    const race = raceOf(failures);
    const log = createEventLog(test.store.db.withPlugin(race.plugin), clock, createEventBus());
    return { log, seen: race.seen, conversation: conversation! };
  }

  it('tries again after a primary-key clash (SQLite’s code or PostgreSQL’s), up to eight attempts', async () => {
    const failures = [
      ...Array.from({ length: 4 }, () => unique('SQLITE_CONSTRAINT_PRIMARYKEY')),
      ...Array.from({ length: 3 }, () => unique('23505')),
    ];
    const { log, seen, conversation } = await setup(failures);
    const event = await log.append(conversation, { type: 'turn.cancelled', turnId: 'trn_1' });
    expect(event.id).toBe(1);
    expect(seen.inserts).toBe(8);
    expect(await log.after(conversation, 0)).toHaveLength(1);
  });

  it('gives up after the eighth clash, with the store’s error and nothing written', async () => {
    const clash = unique('23505');
    const { log, seen, conversation } = await setup(Array.from({ length: 8 }, () => clash));
    await expect(log.append(conversation, { type: 'turn.cancelled', turnId: 'trn_1' })).rejects.toBe(clash);
    expect(seen.inserts).toBe(8);
    expect(await log.after(conversation, 0)).toEqual([]);
  });

  it('does not try again after any other error', async () => {
    for (const other of [
      Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }),
      new Error('no code'),
      unique('23503'),
    ]) {
      const { log, seen, conversation } = await setup([other]);
      await expect(log.append(conversation, { type: 'turn.cancelled', turnId: 'trn_1' })).rejects.toBe(other);
      expect(seen.inserts).toBe(1);
      await test!.close();
      test = undefined;
    }
  });

  it('answers newestOf for no conversation without a statement', async () => {
    const { log, seen } = await setup([]);
    const before = seen.statements;
    expect(await log.newestOf([])).toEqual(new Map());
    expect(seen.statements).toBe(before);
  });
});
