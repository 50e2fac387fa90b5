// Our server for the benchmark: the real app over a fresh SQLite store with one assistant whose
// file caps are lifted out of the way (the benchmark measures streaming, not quotas).
// Prints { url, publishableKey, origin }.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, ensureOwner, loadConfig, openStore, systemClock } from '@diosc/server';
import { createAssistant } from '@diosc/server/testing';
import { addMemoryProbe } from './memory-probe.js';

const ORIGIN = 'http://bench.localhost';
const dir = mkdtempSync(join(tmpdir(), 'diosc-bench-files-'));
const config = loadConfig(
  { DIOSC_DATA_DIR: dir, DIOSC_OWNER_PASSWORD: 'bench password', DIOSC_LOG_LEVEL: 'silent' },
  dir,
);
const store = await openStore({
  sqlitePath: join(dir, 'diosc.sqlite'),
  databaseUrl: process.env.BENCH_DATABASE_URL,
});
const { accountId } = await ensureOwner(store, config, systemClock);
const app = await buildApp({ config, store, logger: false });
const assistant = await createAssistant(app.diosc, accountId, {
  name: 'Bench',
  model: { provider: 'scripted', id: 'scripted-demo' },
  allowedOrigins: [ORIGIN],
  files: {
    enabled: true,
    maxFileBytes: 64 * 1024 * 1024,
    maxConversationBytes: 1024 * 1024 * 1024,
    maxVisitorBytes: 10 * 1024 * 1024 * 1024,
    maxAssistantBytes: 100 * 1024 * 1024 * 1024,
    allowedTypes: ['application/octet-stream'],
  },
});
addMemoryProbe(app);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${port}`, publishableKey: assistant.publishableKey, origin: ORIGIN })}\n`,
);
process.on('SIGTERM', () => {
  void app.close().then(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
