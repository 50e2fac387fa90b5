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
const KILL_AFTER_ACKS = 25;

/** Runs the writer, SIGKILLs it once it has acknowledged enough writes, and returns every ack it printed. */
async function runAndKill(args: object): Promise<Map<number, unknown>> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks = new Map<number, unknown>();
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
      const match = /^ack (\d+) (.*)$/.exec(line);
      if (!match) continue;
      acks.set(Number(match[1]), JSON.parse(match[2]!));
      if (acks.size === KILL_AFTER_ACKS) child.kill('SIGKILL');
    }
  });
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal })),
  );
  expect(signal, `writer exited by itself (code ${code}): ${stderr}`).toBe('SIGKILL');
  return acks;
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

  it('every acknowledged write survives SIGKILL with its committed receipt; the cut-off write left no half state', async () => {
    test = await openTestStore(dialect);
    const sqlitePath = join(test.dir, 'diosc.sqlite');
    const acks = await runAndKill({
      sqlitePath,
      databaseUrl: test.config.databaseUrl,
      accountId: test.accountId,
    });
    expect(acks.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    const acked = [...acks.keys()].sort((a, b) => a - b);
    expect(acked).toEqual(acked.map((_, i) => i));

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
    // At most the one write in progress at the kill went further than its acknowledgement, and it is
    // all or nothing: an item exists exactly when its receipt is committed.
    expect(items.length - acks.size).toBeGreaterThanOrEqual(0);
    expect(items.length - acks.size).toBeLessThanOrEqual(1);
    for (const receipt of receipts) {
      const n = Number(receipt.request_id.replace('crash-request-', ''));
      expect(itemById.has(`crash-${n}`)).toBe(receipt.status === 'committed');
    }
    for (const item of items) {
      expect(receiptById.get(item.id.replace('crash-', 'crash-request-'))?.status).toBe('committed');
    }

    // A restarted core replays every acknowledged write without executing it again, and the write
    // cut off by the kill can be retried under its own ID once any stale lease has expired.
    const core = createAccountCore({ store: reopened, clock: manualClock(Date.now() + 60_000) });
    const caller = {
      accountId: test.accountId,
      actor: 'crash-writer',
      via: 'owner' as const,
      grant: { kind: 'all' as const },
    };
    for (const [n, result] of acks) {
      const replay = await core.execute('item_write', crashWrite(n), caller);
      expect(replay).toEqual({ name: 'item_write', result, replayed: true });
    }
    const next = acks.size;
    const retried = await core.execute('item_write', crashWrite(next), caller);
    expect(retried.replayed).toBe(itemById.has(`crash-${next}`));
    expect(retried.result.item.id).toBe(`crash-${next}`);
  });
});
