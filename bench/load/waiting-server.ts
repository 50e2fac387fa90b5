// One of two hub instances over one PostgreSQL database (WAITING_DATABASE_URL), sharing a data
// directory (WAITING_DIR: the secret key that seals assistant secrets). The first creates the owner
// and the assistant; the second finds them. One browser round trip per turn (the hub bench's
// script). Prints { url, publishableKey }; over IPC answers { type: 'counts' }; SIGTERM stops it.
import { buildApp, ensureOwner, loadConfig, openStore, systemClock } from '@diosc/server';
import { benchModel } from '../hub/bench-model.js';
import { roundTripScript } from '../hub/fixtures.js';
import { serveBenchHub } from '../hub/serve-bench-hub.js';

const ASSISTANT = 'Waiting bench assistant';
const dir = process.env.WAITING_DIR!;
const databaseUrl = process.env.WAITING_DATABASE_URL!;
const config = loadConfig(
  {
    DIOSC_DATA_DIR: dir,
    DIOSC_OWNER_PASSWORD: 'bench password',
    DIOSC_LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
  },
  dir,
);
const store = await openStore({ databaseUrl, sqlitePath: `${dir}/unused.sqlite` });
const { accountId } = await ensureOwner(store, config, systemClock);
const model = benchModel(roundTripScript(1), 'scripted-bench');
const app = await buildApp({ config, store, logger: false, hub: { scriptedModels: { bench: model } } });
await serveBenchHub(app, accountId, ASSISTANT);
const hub = app.diosc.hub!;

process.on('message', (message: { type?: string }) => {
  if (message.type !== 'counts') return;
  store.db
    .selectFrom('hub_turns')
    .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('status')
    .execute()
    .then(
      (rows) =>
        process.send?.({
          type: 'counts',
          turns: Object.fromEntries(rows.map((row) => [row.status, Number(row.count)])),
          activeRunners: hub.runner.activeCount,
          rss: process.memoryUsage().rss,
        }),
      (error: unknown) => process.send?.({ type: 'error', message: String(error) }),
    );
});

process.on('SIGTERM', async () => {
  app.server.closeAllConnections();
  await app.close();
  await store.close();
  process.exit(0);
});
