// One of two hub instances over one PostgreSQL database (WAITING_DATABASE_URL), sharing a data
// directory (WAITING_DIR: the secret key that seals assistant secrets). The first creates the owner
// and the assistant; the second finds them. One browser round trip per turn (the hub bench's
// script). Prints { url, publishableKey }; over IPC answers { type: 'counts' }; SIGTERM stops it.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { buildApp } from '../../packages/server/src/app.js';
import { systemClock } from '../../packages/server/src/clock.js';
import { loadConfig } from '../../packages/server/src/config.js';
import { ensureOwner } from '../../packages/server/src/first-run.js';
import { createAssistant } from '../../packages/server/src/hub/assistants/assistant-admin.js';
import { createScriptedModel } from '../../packages/server/src/hub/model/scripted/scripted-model.js';
import { openStore } from '../../packages/server/src/store/dialect.js';
import { PAGE_ORIGIN, roundTripScript } from '../hub/fixtures.js';

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
const scripted = createScriptedModel(roundTripScript(1), { modelId: 'scripted-bench' });
// The scripted model's prompt log is the double's memory, not the hub's: emptied after each call.
const model: LanguageModelV3 = {
  ...scripted,
  async doStream(options) {
    try {
      return await scripted.doStream(options);
    } finally {
      scripted.calls.length = 0;
    }
  },
};
const app = await buildApp({ config, store, logger: false, hub: { scriptedModels: { bench: model } } });
const hub = app.diosc.hub!;
const existing = (await hub.services.assistants.list(accountId)).find((a) => a.config.name === ASSISTANT);
const assistant =
  existing ??
  (await createAssistant(app.diosc, accountId, {
    name: ASSISTANT,
    model: { provider: 'scripted', id: 'bench' },
    allowedOrigins: [PAGE_ORIGIN],
    // The most the schema allows: the run must never hit a limit or an interrupt's deadline.
    limits: { messagesPerMinute: 1_000, maxStepsPerTurn: 50, interruptTimeoutMs: 3_600_000 },
  }));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${port}`, publishableKey: assistant.publishableKey })}\n`,
);

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
