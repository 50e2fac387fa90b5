import { DioscError, FUNCTION_NAMES, isMutatingFunction } from '@diosc/protocol';
import { DIALECTS } from '@diosc/server/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreFixture, openCore, snapshotDigest } from './helpers.js';
import { malformedClasses, SHAPES } from './malformed-inputs.js';

/** Generated inputs per class of malformation (each class is one rule broken on one valid base). */
const RUNS_PER_CLASS = 150;

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

/** The refusal of one call, or a description of what happened instead (never taken for a refusal). */
async function outcome(f: CoreFixture, name: string, input: unknown): Promise<string> {
  try {
    await f.core.execute(name, input, f.owner);
    return 'accepted';
  } catch (error) {
    return DioscError.isInstance(error) ? error.code : `threw ${String(error)}`;
  }
}

/** Each function's bases, each base's classes of malformed inputs: one test per class. */
const CASES = FUNCTION_NAMES.flatMap((name) =>
  SHAPES[name].flatMap((shape) => malformedClasses(shape).map((malformed) => ({ name, shape, malformed }))),
);

describe.each(DIALECTS)('malformed inputs are refused and write nothing ($name)', (dialect) => {
  let f: CoreFixture;
  beforeAll(async () => {
    f = await openCore(dialect, { callsPerMinutePerCaller: Number.MAX_SAFE_INTEGER });
  });
  afterAll(() => f.close());

  // The generator breaks valid inputs: each base must really be valid — accepted outright, not
  // refused for some other reason (a thrown TypeError is not "valid"). A write's base is previewed,
  // which runs the input, authority and kind rules and writes nothing.
  it.each(FUNCTION_NAMES.flatMap((name) => SHAPES[name].map((shape) => ({ name, shape }))))(
    '$name ($shape.label): the base input is valid',
    async ({ name, shape }) => {
      const before = await snapshotDigest(f.store);
      if (isMutatingFunction(name)) {
        const effects = await f.core.preview(name, shape.valid, f.owner);
        expect(effects.action).toMatch(/^(create|replace|metadata|delete)$/);
      } else {
        await expect(f.core.execute(name, shape.valid, f.owner)).resolves.toMatchObject({ name });
      }
      expect(await snapshotDigest(f.store)).toBe(before);
    },
  );

  it.each(CASES)(
    '$name ($shape.label), $malformed.label: invalid_input, nothing written',
    async ({ name, malformed }) => {
      const before = { counts: await rowCounts(f), digest: await snapshotDigest(f.store) };
      const numRuns = malformed.fixed ? 1 : RUNS_PER_CLASS;
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(malformed.inputs, async (input) => {
          runs += 1;
          expect(await outcome(f, name, input)).toBe('invalid_input');
        }),
        { numRuns },
      );
      expect(runs).toBe(numRuns);
      expect(await rowCounts(f)).toEqual(before.counts);
      expect(await snapshotDigest(f.store)).toBe(before.digest);
    },
  );

  it(`unknown tool names (${RUNS_PER_CLASS * 5} generated) get unknown_tool whatever the input`, async () => {
    const before = await snapshotDigest(f.store);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }).filter((n) => !(FUNCTION_NAMES as readonly string[]).includes(n)),
        fc.anything({ maxDepth: 2 }),
        async (name, input) => {
          expect(await outcome(f, name, input)).toBe('unknown_tool');
        },
      ),
      { numRuns: RUNS_PER_CLASS * 5 },
    );
    expect(await snapshotDigest(f.store)).toBe(before);
  });
});
