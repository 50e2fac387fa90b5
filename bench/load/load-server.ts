// The server of the load run, in its own process: the real app over SQLite in LOAD_DIR or
// PostgreSQL at LOAD_DATABASE_URL (the
// account limits lifted, so the run measures the work, not the per-caller quotas), prepared by
// load-app.ts. Prints the LoadTarget once listening; SIGTERM closes it.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { buildApp, ensureOwner, loadConfig, openStore, systemClock } from '@diosc/server';
import { benchModel } from '../hub/bench-model.js';
import { loadScript, prepareLoadApp } from './load-app.js';

const dir = process.env.LOAD_DIR!;
// On PostgreSQL (LOAD_DATABASE_URL) a second instance (LOAD_ROLE=second) shares the store and the
// data directory (the secret key); the first one prepared everything, so it only listens.
const databaseUrl = process.env.LOAD_DATABASE_URL;
const second = process.env.LOAD_ROLE === 'second';
const password = 'load bench password';
// The owner signs in at the public origin only, so the port is chosen before the app is built.
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const config = loadConfig(
  {
    DIOSC_DATA_DIR: dir,
    DIOSC_OWNER_PASSWORD: password,
    DIOSC_LOG_LEVEL: 'silent',
    DIOSC_PORT: String(port),
    DIOSC_PUBLIC_ORIGIN: url,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  },
  dir,
);
const store = await openStore({ databaseUrl, sqlitePath: join(dir, 'diosc.sqlite') });
const { accountId, email } = await ensureOwner(store, config, systemClock);
const model = benchModel(loadScript, 'scripted-load');
const app = await buildApp({
  config,
  store,
  logger: false,
  limits: { callsPerMinutePerCaller: 100_000_000, maxConcurrentPerAccount: 1_000 },
  hub: { scriptedModels: { load: model } },
});
await app.listen({ host: '127.0.0.1', port });
const target = second ? { url } : await prepareLoadApp(app, accountId, { email, password }, url);
process.stdout.write(`${JSON.stringify(target)}\n`);

process.on('SIGTERM', async () => {
  app.server.closeAllConnections();
  await app.close();
  await store.close();
  process.exit(0);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
