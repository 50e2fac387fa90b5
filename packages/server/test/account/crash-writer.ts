// Child process of crash.test.ts: opens the store, then writes items one after another and prints
// `ack <n> <result JSON>` after each write has committed. It never stops by itself; the test kills it.
import { createAccountCore } from '../../src/account/core.js';
import { openStore } from '../../src/store/dialect.js';
import { crashWrite } from './crash-input.js';

const { sqlitePath, databaseUrl, accountId } = JSON.parse(process.argv[2] ?? '{}') as {
  sqlitePath: string;
  databaseUrl?: string;
  accountId: string;
};
const store = await openStore({ sqlitePath, databaseUrl });
const core = createAccountCore({ store, limits: { callsPerMinutePerCaller: Number.MAX_SAFE_INTEGER } });
const caller = { accountId, actor: 'crash-writer', via: 'owner' as const, grant: { kind: 'all' as const } };
process.stdout.write('ready\n');
for (let n = 0; ; n += 1) {
  const { result } = await core.execute('item_write', crashWrite(n), caller);
  // Pipes are synchronous on Linux: once this returns, the parent can read the line even if we die next.
  process.stdout.write(`ack ${n} ${JSON.stringify(result)}\n`);
}
