import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAssistants } from '../../src/hub/assistants/assistants.js';
import { createModelUsage } from '../../src/hub/usage/model-usage.js';
import { createSecretBox } from '../../src/secrets/secret-box.js';

let test: TestStore | undefined;
afterEach(async () => {
  await test?.close();
  test = undefined;
});

describe.each(DIALECTS)("a model step's token counts, written in batches ($name)", (dialect) => {
  async function setup() {
    test = await openTestStore(dialect);
    const clock = { now: () => Date.now() };
    const assistants = createAssistants(test.store.db, clock, createSecretBox(Buffer.alloc(32, 7)));
    const make = (name: string) =>
      assistants.create(test!.accountId, { name, allowedOrigins: ['http://a.localhost'] });
    const errors: number[] = [];
    // An hour: nothing is written until a reader flushes (the timer is never what a test waits on).
    const usage = createModelUsage(test.store.db, clock, {
      onError: (_error, rows) => errors.push(rows),
      flushMs: 3_600_000,
    });
    const rows = () =>
      test!.store.db.selectFrom('hub_model_usage').selectAll().orderBy('input_tokens').execute();
    const step = (assistantId: string, inputTokens: number) =>
      usage.record({ assistantId, conversationId: 'cnv_x', turnId: 'trn_x', inputTokens, outputTokens: 1.6 });
    return { assistants, make, usage, rows, step, errors };
  }

  it('writes what was recorded when flushed, and nothing before', async () => {
    const { make, usage, rows, step } = await setup();
    const assistant = await make('One');
    step(assistant.id, 10);
    step(assistant.id, -3);
    expect(await rows()).toEqual([]);
    await usage.flush();
    const written = await rows();
    expect(written.map((row) => [Number(row.input_tokens), Number(row.output_tokens)])).toEqual([
      [0, 2],
      [10, 2],
    ]);
    // A second flush with nothing pending writes nothing more.
    await usage.flush();
    expect(await rows()).toHaveLength(2);
  });

  it("keeps the other rows of a batch when one's assistant was deleted meanwhile", async () => {
    const { assistants, make, usage, rows, step, errors } = await setup();
    const kept = await make('Kept');
    const gone = await make('Gone');
    step(kept.id, 1);
    step(gone.id, 2);
    step(kept.id, 3);
    await assistants.remove(test!.accountId, gone.id);
    await usage.flush();
    expect((await rows()).map((row) => [row.assistant_id, Number(row.input_tokens)])).toEqual([
      [kept.id, 1],
      [kept.id, 3],
    ]);
    // The lost row is reported, never thrown at whoever recorded it.
    expect(errors).toEqual([3]);
  });
});
