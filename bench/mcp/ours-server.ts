// Our server for the benchmark: the real app over a fresh SQLite store, seeded with a 10,000-item
// storage collection, and one HTTP MCP connection granted items_list on it. Prints { url, token }.
import { buildApp } from '@diosc/server';
import { openTestStore, seedCollection } from '@diosc/server/testing';

const ITEMS = 10_000;
const test = await openTestStore();
await seedCollection(
  test.store,
  test.accountId,
  { id: 'bench', kind: 'storage', title: 'Benchmark' },
  { items: ITEMS, body: (index) => `Item ${index}: a note of ordinary length for the benchmark.` },
);

// The benchmark measures throughput, not the per-caller quotas: lift them out of the way.
const app = await buildApp({
  config: test.config,
  store: test.store,
  limits: { callsPerMinutePerCaller: 100_000_000, maxConcurrentPerAccount: 1_000 },
  logger: false,
});
const { token } = await app.diosc.connections.createMcp(test.accountId, {
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
  await test.close();
  process.exit(0);
});
