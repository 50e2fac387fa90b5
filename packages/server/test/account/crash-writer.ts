// Child process of crash.test.ts: opens the store, then writes items one after another and prints
// `ack <n> <result JSON>` after each write has committed. Write number `cutAt` announces itself from
// inside its transaction (`inside <n>`, through the core's `insideWrite` seam) and waits there for
// the parent's SIGKILL: the kill always lands in a write, after its change and receipt, before commit.
import { createAccountCore } from '../../src/account/core.js';
import { openStore } from '../../src/store/dialect.js';
import { crashWrite } from './crash-input.js';

const { sqlitePath, databaseUrl, accountId, cutAt } = JSON.parse(process.argv[2] ?? '{}') as {
  sqlitePath: string;
  databaseUrl?: string;
  accountId: string;
  cutAt: number;
};
const cutRequestId = crashWrite(cutAt).requestId;
const store = await openStore({ sqlitePath, databaseUrl });
const core = createAccountCore({
  store,
  limits: { callsPerMinutePerCaller: Number.MAX_SAFE_INTEGER },
  insideWrite: ({ requestId }) => {
    if (requestId !== cutRequestId) return;
    // Pipes are synchronous on Linux: the parent can read the line even though we die next.
    process.stdout.write(`inside ${cutAt}\n`);
    return new Promise<void>(() => {});
  },
});
const caller = { accountId, actor: 'crash-writer', via: 'owner' as const, grant: { kind: 'all' as const } };
for (let n = 0; ; n += 1) {
  const { result } = await core.execute('item_write', crashWrite(n), caller);
  process.stdout.write(`ack ${n} ${JSON.stringify(result)}\n`);
}
