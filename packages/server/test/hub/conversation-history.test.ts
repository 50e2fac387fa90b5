import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createConversationHistory } from '../../src/hub/conversations/conversation-history.js';
import { type Conversations, createConversations } from '../../src/hub/store/conversations.js';
import { seedConversations } from './support/conversations.js';

let test: TestStore | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

/** The store's conversations, with each `messagesAfter` read recorded (its `seq` and what it returned). */
function counted(conversations: Conversations) {
  const reads: { after: number; rows: number }[] = [];
  return {
    reads,
    async messagesAfter(conversationId: string, seq: number) {
      const rows = await conversations.messagesAfter(conversationId, seq);
      reads.push({ after: seq, rows: rows.length });
      return rows;
    },
  };
}

describe.each(DIALECTS)('the conversation history kept in memory ($name)', (dialect) => {
  async function setup(count = 2) {
    test = await openTestStore(dialect);
    const ids = await seedConversations(test.store, test.accountId, count);
    // Another instance's writes: the history learns of them only through the store.
    const elsewhere = createConversations(test.store.db, { now: () => Date.now() });
    const say = (id: string, text: string) =>
      elsewhere.appendMessage(id, { turnId: null, content: { role: 'user', content: text } });
    return { ids, elsewhere, say };
  }

  it('reads only the messages appended since its last read, whoever appended them', async () => {
    const { ids, elsewhere, say } = await setup();
    const id = ids[0]!;
    const store = counted(elsewhere);
    const history = createConversationHistory(store);
    for (let index = 0; index < 40; index++) await say(id, `message ${index}`);
    const first = await history.messages(id);
    expect(first.map((message) => message.content.content)).toEqual(
      Array.from({ length: 40 }, (_, index) => `message ${index}`),
    );
    await say(id, 'one more');
    const second = await history.messages(id);
    expect(second).toHaveLength(41);
    // Earlier messages are the very objects already parsed: the prompt built on them is reused.
    expect(second[0]).toBe(first[0]);
    const third = await history.messages(id);
    expect(third).toHaveLength(41);
    expect(store.reads).toEqual([
      { after: 0, rows: 40 },
      { after: 40, rows: 1 },
      { after: 41, rows: 0 },
    ]);
    // The whole log, read afresh, is the same history.
    expect((await elsewhere.messages(id)).map((message) => message.id)).toEqual(third.map((m) => m.id));
  });

  it('takes each message once when two reads overlap', async () => {
    const { ids, elsewhere, say } = await setup();
    const id = ids[0]!;
    const history = createConversationHistory(elsewhere);
    await say(id, 'a');
    await history.messages(id);
    await say(id, 'b');
    await say(id, 'c');
    const [one, two] = await Promise.all([history.messages(id), history.messages(id)]);
    expect(one.map((message) => message.seq)).toEqual([1, 2, 3]);
    expect(two.map((message) => message.seq)).toEqual([1, 2, 3]);
  });

  it('keeps at most its budget, least recently used out first, and forgets a deleted conversation', async () => {
    const { ids, elsewhere, say } = await setup(3);
    const store = counted(elsewhere);
    for (const id of ids) await say(id, 'x'.repeat(100));
    const history = createConversationHistory(store, { maxChars: 1_000_000, maxConversations: 2 });
    await history.messages(ids[0]!);
    await history.messages(ids[1]!);
    await history.messages(ids[2]!); // the first leaves
    store.reads.length = 0;
    await history.messages(ids[1]!);
    await history.messages(ids[0]!);
    expect(store.reads).toEqual([
      { after: 1, rows: 0 },
      { after: 0, rows: 1 },
    ]);
    history.forget(ids[0]!);
    store.reads.length = 0;
    expect(await history.messages(ids[0]!)).toHaveLength(1);
    expect(store.reads).toEqual([{ after: 0, rows: 1 }]);

    // A size budget smaller than one conversation keeps nothing, and still answers in full.
    const small = counted(elsewhere);
    const tight = createConversationHistory(small, { maxChars: 50, maxConversations: 10 });
    expect(await tight.messages(ids[2]!)).toHaveLength(1);
    expect(await tight.messages(ids[2]!)).toHaveLength(1);
    expect(small.reads).toEqual([
      { after: 0, rows: 1 },
      { after: 0, rows: 1 },
    ]);
  });

  it('keeps what this process appends and, told how far the store goes, reads nothing', async () => {
    const { ids, elsewhere, say } = await setup();
    const id = ids[0]!;
    const store = counted(elsewhere);
    let history: ReturnType<typeof createConversationHistory> | undefined;
    // This process's store tells the history of each message it appends (the hub does so once the
    // transaction commits).
    const here = createConversations(test!.store.db, { now: () => Date.now() }, (conversationId, message) =>
      history?.appended(conversationId, message),
    );
    history = createConversationHistory(store);
    const append = (text: string) =>
      here.appendMessage(id, { turnId: null, content: { role: 'user', content: text } });

    // A new conversation's first message starts its kept history.
    await append('one');
    await append('two');
    expect((await history.messages(id, { through: 2 })).map((m) => m.content.content)).toEqual([
      'one',
      'two',
    ]);
    expect(store.reads).toEqual([]);
    // What a caller was given stays as it was when a message is appended after.
    const given = await history.messages(id, { through: 2 });
    await append('two and a half');
    expect(given).toHaveLength(2);
    expect(await history.messages(id, { through: 3 })).toHaveLength(3);

    // Another instance appended: `through` says so, and only the new message is read.
    await say(id, 'four, elsewhere');
    const four = await history.messages(id, { through: 4 });
    expect(four.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(store.reads).toEqual([{ after: 3, rows: 1 }]);

    // A message appended here after one this process never saw is not kept out of order: the
    // history knows the store is ahead, and reads, even when told an older `through`.
    await say(id, 'five, elsewhere');
    await append('six');
    store.reads.length = 0;
    const six = await history.messages(id, { through: 4 });
    expect(six.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(store.reads).toEqual([{ after: 4, rows: 2 }]);

    // Kept messages are what the store holds, not the caller's objects.
    const appended = six.at(-1)!;
    const [read] = await elsewhere.messagesAfter(id, 5);
    expect(appended).toEqual(read);

    // Without `through`, a read looks at the store as before.
    store.reads.length = 0;
    await history.messages(id);
    expect(store.reads).toEqual([{ after: 6, rows: 0 }]);
  });
});
