import { DioscError, FUNCTION_NAMES } from '@diosc/protocol';
import { DIALECTS } from '@diosc/server/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreFixture, openCore, snapshotDigest } from './helpers.js';
import { malformedInput, SHAPES } from './malformed-inputs.js';

const RUNS = 1_000;

async function rowCounts(f: CoreFixture) {
  const count = async (table: 'items' | 'receipts' | 'collections') =>
    Number(
      (
        await f.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    items: await count('items'),
    receipts: await count('receipts'),
    collections: await count('collections'),
  };
}

/** The refusal of one call, or a description of what happened instead. */
async function outcome(f: CoreFixture, name: string, input: unknown): Promise<string> {
  try {
    await f.core.execute(name, input, f.owner);
    return 'accepted';
  } catch (error) {
    return DioscError.isInstance(error) ? error.code : `threw ${String(error)}`;
  }
}

describe.each(DIALECTS)('malformed inputs are refused and write nothing ($name)', (dialect) => {
  let f: CoreFixture;
  beforeAll(async () => {
    f = await openCore(dialect, { callsPerMinutePerCaller: Number.MAX_SAFE_INTEGER });
  });
  afterAll(() => f.close());

  it.each(FUNCTION_NAMES)(`%s: ${RUNS} generated malformed inputs each get invalid_input`, async (name) => {
    // The generator breaks valid inputs; check that its starting points really are valid.
    expect(await outcome(f, name, SHAPES[name].valid)).not.toBe('invalid_input');
    const before = { counts: await rowCounts(f), digest: await snapshotDigest(f.store) };
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(malformedInput(name), async (input) => {
        runs += 1;
        expect(await outcome(f, name, input)).toBe('invalid_input');
      }),
      { numRuns: RUNS },
    );
    expect(runs).toBeGreaterThanOrEqual(RUNS);
    expect(await rowCounts(f)).toEqual(before.counts);
    expect(await snapshotDigest(f.store)).toBe(before.digest);
  });

  it(`unknown tool names (${RUNS} generated) get unknown_tool whatever the input`, async () => {
    const before = await snapshotDigest(f.store);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }).filter((n) => !(FUNCTION_NAMES as readonly string[]).includes(n)),
        fc.anything({ maxDepth: 2 }),
        async (name, input) => {
          expect(await outcome(f, name, input)).toBe('unknown_tool');
        },
      ),
      { numRuns: RUNS },
    );
    expect(await snapshotDigest(f.store)).toBe(before);
  });
});
