// Our server for the benchmark: the real app over a fresh SQLite store, seeded with a 10,000-item
// storage collection, and one HTTP MCP connection granted items_list on it. Prints { url, token }.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCollection } from '../../packages/server/src/account/collections.js';
import { buildApp } from '../../packages/server/src/app.js';
import { systemClock } from '../../packages/server/src/clock.js';
import { loadConfig } from '../../packages/server/src/config.js';
import { ensureOwner } from '../../packages/server/src/first-run.js';
import { openStore } from '../../packages/server/src/store/dialect.js';

const ITEMS = 10_000;
const dir = mkdtempSync(join(tmpdir(), 'diosc-bench-'));
const config = loadConfig(
  { DIOSC_DATA_DIR: dir, DIOSC_OWNER_PASSWORD: 'bench password', DIOSC_LOG_LEVEL: 'silent' },
  dir,
);
const store = await openStore({ sqlitePath: join(dir, 'diosc.sqlite') });
const { accountId } = await ensureOwner(store, config, systemClock);
const now = systemClock.now();
await createCollection(store.db, accountId, { id: 'bench', kind: 'storage', title: 'Benchmark' }, now);
await store.db.transaction().execute(async (trx) => {
  for (let start = 0; start < ITEMS; start += 500) {
    const rows = [];
    for (let index = start; index < Math.min(start + 500, ITEMS); index++) {
      const content = `Item ${index}: a note of ordinary length for the benchmark.`;
      rows.push({
        account_id: accountId,
        collection_id: 'bench',
        id: `item-${String(index).padStart(5, '0')}`,
        title: `Note ${index}`,
        content_type: 'text/plain',
        content,
        metadata: null,
        version: 1,
        size_bytes: Buffer.byteLength(content),
        created_at: now - index * 1000,
        updated_at: now - index * 1000,
      });
    }
    await trx.insertInto('items').values(rows).execute();
  }
});

// The benchmark measures throughput, not the per-caller quotas: lift them out of the way.
const app = await buildApp({
  config,
  store,
  limits: { callsPerMinutePerCaller: 100_000_000, maxConcurrentPerAccount: 1_000 },
  logger: false,
});
const { token } = await app.diosc.connections.createMcp(accountId, {
  displayName: 'benchmark',
  grant: [{ collection: 'bench', functions: ['items_list'] }],
  provenance: 'benchmark',
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/mcp`, token })}\n`);

process.on('SIGTERM', async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
