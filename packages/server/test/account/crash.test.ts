import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIALECTS, openTestStore, type TestStore } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccountCore } from '../../src/account/core.js';
import { inputDigest } from '../../src/account/digest.js';
import { manualClock } from '../../src/clock.js';
import { openStore, type Store } from '../../src/store/dialect.js';
import { crashWrite } from './crash-input.js';

const WRITER = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));
/** The write the child is killed inside of; the ones before it are acknowledged. */
const CUT_AT = 12;

/**
 * Runs the writer and SIGKILLs it the moment it announces that it is inside the transaction of
 * write `CUT_AT`; returns every ack it printed and whether the cut was announced.
 */
async function runAndKill(args: object): Promise<{ acks: Map<number, unknown>; cut: number | null }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', WRITER, JSON.stringify({ ...args, cutAt: CUT_AT })],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const acks = new Map<number, unknown>();
  let cut: number | null = null;
  let stderr = '';
  let buffer = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      const inside = /^inside (\d+)$/.exec(line);
      if (inside) {
        cut = Number(inside[1]);
        child.kill('SIGKILL');
        continue;
      }
      const match = /^ack (\d+) (.*)$/.exec(line);
      if (match) acks.set(Number(match[1]), JSON.parse(match[2]!));
    }
  });
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal })),
  );
  expect(signal, `writer exited by itself (code ${code}): ${stderr}`).toBe('SIGKILL');
  return { acks, cut };
}

describe.each(DIALECTS)('crash durability ($name)', (dialect) => {
  let test: TestStore | undefined;
  let reopened: Store | undefined;
  afterEach(async () => {
    await reopened?.close();
    await test?.close();
    reopened = undefined;
    test = undefined;
  });

  it('a write killed inside its transaction leaves nothing; every acknowledged one survives with its receipt', async () => {
    test = await openTestStore(dialect);
    const sqlitePath = join(test.dir, 'diosc.sqlite');
    const { acks, cut } = await runAndKill({
      sqlitePath,
      databaseUrl: test.config.databaseUrl,
      accountId: test.accountId,
    });
    // The kill landed inside write CUT_AT, after every earlier write was acknowledged.
    expect(cut).toBe(CUT_AT);
    expect([...acks.keys()].sort((a, b) => a - b)).toEqual([...Array(CUT_AT).keys()]);

    // A fresh handle on the same file/database, as a restarted server would open it.
    reopened = await openStore({ sqlitePath, databaseUrl: test.config.databaseUrl });
    const items = await reopened.db
      .selectFrom('items')
      .selectAll()
      .where('account_id', '=', test.accountId)
      .where('id', 'like', 'crash-%')
      .execute();
    const receipts = await reopened.db
      .selectFrom('receipts')
      .selectAll()
      .where('actor', '=', 'crash-writer')
      .execute();
    const itemById = new Map(items.map((row) => [row.id, row]));
    const receiptById = new Map(receipts.map((row) => [row.request_id, row]));

    for (const [n, result] of acks) {
      const input = crashWrite(n);
      expect(itemById.get(input.item), `acknowledged write ${n} is missing`).toMatchObject({
        content: input.content.body,
        version: 1,
      });
      const receipt = receiptById.get(input.requestId);
      expect(receipt, `receipt of acknowledged write ${n} is missing`).toMatchObject({
        status: 'committed',
        function_name: 'item_write',
        input_digest: inputDigest('item_write', input),
      });
      expect(JSON.parse(receipt!.result!)).toEqual(result);
    }
    // The cut write: its change and its completed receipt were written but never committed, so no
    // item and no committed receipt; at most the claim taken before the transaction, still in flight.
    const cutInput = crashWrite(CUT_AT);
    expect(itemById.has(cutInput.item)).toBe(false);
    expect(items).toHaveLength(CUT_AT);
    const cutReceipt = receiptById.get(cutInput.requestId);
    expect(cutReceipt).toMatchObject({ status: 'in_flight', result: null, completed_at: null });
    expect(receipts.filter((row) => row.status === 'committed')).toHaveLength(CUT_AT);

    const caller = {
      accountId: test.accountId,
      actor: 'crash-writer',
      via: 'owner' as const,
      grant: { kind: 'all' as const },
    };
    // While the dead writer's lease lasts, the same request ID is refused as in flight, unexecuted.
    const early = createAccountCore({
      store: reopened,
      clock: manualClock(Number(cutReceipt!.lease_expires_at) - 1),
    });
    await expect(early.execute('item_write', cutInput, caller)).rejects.toMatchObject({ code: 'in_flight' });
    expect(await itemCount(reopened, test.accountId, cutInput.item)).toBe(0);
    // A restarted core past the lease replays every acknowledged write without executing it again,
    // and runs the cut write under its own request ID exactly once.
    const core = createAccountCore({ store: reopened, clock: manualClock(Date.now() + 60_000) });
    for (const [n, result] of acks) {
      const replay = await core.execute('item_write', crashWrite(n), caller);
      expect(replay).toEqual({ name: 'item_write', result, replayed: true });
    }
    const retried = await core.execute('item_write', cutInput, caller);
    expect(retried).toMatchObject({
      replayed: false,
      result: { created: true, item: { id: cutInput.item } },
    });
    const again = await core.execute('item_write', cutInput, caller);
    expect(again).toEqual({ name: 'item_write', result: retried.result, replayed: true });
    expect(await itemCount(reopened, test.accountId, cutInput.item)).toBe(1);
    expect(
      await reopened.db
        .selectFrom('items')
        .select('version')
        .where('id', '=', cutInput.item)
        .executeTakeFirst(),
    ).toEqual({
      version: 1,
    });
  });
});

async function itemCount(store: Store, accountId: string, item: string): Promise<number> {
  const rows = await store.db
    .selectFrom('items')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', item)
    .execute();
  return rows.length;
}
