// `npm run example -- northwind|plynth` (after scripts/example.mjs built it): the hub and the
// example on two origins, the example's assistant created or updated, the URL printed.
import { join } from 'node:path';
import { buildApp, ensureOwner, loadConfig, openStore, systemClock } from '@diosc/server';
import { createScriptedModel } from '@diosc/server/scripted';
import { createAssistant, updateAssistant } from '@diosc/server/testing';
import { exampleAssistantInput, hasRealModel } from './example-assistant.js';
import { buildExampleSite } from './example-site.js';
import { EXAMPLES, isExampleName } from './examples.js';

const name = process.argv[2];
if (!isExampleName(name)) {
  process.stderr.write(`Usage: npm run example -- ${Object.keys(EXAMPLES).join('|')}\n`);
  process.exit(2);
}
const example = EXAMPLES[name];
const env = process.env;
const hubPort = Number(env.DIOSC_EXAMPLE_HUB_PORT ?? example.hubPort);
const sitePort = Number(env.DIOSC_EXAMPLE_PORT ?? example.sitePort);

// Its own store and port, so an example never mixes with what `npm start` runs.
const config = loadConfig({
  ...env,
  DATABASE_URL: undefined,
  DIOSC_ASSISTANTS: undefined,
  DIOSC_HOST: 'localhost',
  DIOSC_PORT: String(hubPort),
  DIOSC_PUBLIC_ORIGIN: `http://localhost:${hubPort}`,
  DIOSC_DATA_DIR: env.DIOSC_EXAMPLE_DATA_DIR ?? join('.data', 'examples', name),
  DIOSC_LOG_LEVEL: env.DIOSC_LOG_LEVEL ?? 'warn',
});
const store = await openStore({ databaseUrl: undefined, sqlitePath: join(config.dataDir, 'diosc.sqlite') });
const owner = await ensureOwner(store, config, systemClock);
const hub = await buildApp({
  config,
  store,
  hub: {
    scriptedModels: {
      [example.scriptedModelId]: createScriptedModel(example.script, { modelId: example.scriptedModelId }),
    },
  },
});
const siteOrigin = `http://localhost:${sitePort}`;
const input = await exampleAssistantInput(join(example.dir, 'assistant.yaml'), {
  origin: siteOrigin,
  scriptedModelId: example.scriptedModelId,
  env,
});
const services = hub.diosc.hub!.services;
const existing = (await services.assistants.list(owner.accountId)).find(
  (assistant) => assistant.config.name === input.name,
);
const assistant = existing
  ? await updateAssistant(hub.diosc, owner.accountId, existing.id, input)
  : await createAssistant(hub.diosc, owner.accountId, input);
await hub.listen({ host: config.host, port: hubPort });
const site = await buildExampleSite({
  dist: join(example.dir, 'dist'),
  hubUrl: config.publicOrigin,
  publishableKey: assistant.publishableKey,
});
await site.listen({ host: 'localhost', port: sitePort });

const { label } = await services.modelFor(assistant);
const lines = [
  '',
  `  ${example.title}`,
  `  Open ${siteOrigin}`,
  '',
  `  Hub: ${config.publicOrigin} (store ${join(config.dataDir, 'diosc.sqlite')})`,
  owner.generatedPassword
    ? `  Hub portal: sign in as ${owner.email} with password ${owner.generatedPassword} (shown once)`
    : `  Hub portal: sign in as ${owner.email}`,
  `  Assistant "${assistant.config.name}" (${assistant.publishableKey}) on ${label}`,
];
if (!hasRealModel(env)) {
  lines.push('', '  No model key is set, so a scripted demo (not an AI) answers these phrases:');
  for (const phrase of example.phrases) lines.push(`    • ${phrase}`);
  lines.push('  Set ANTHROPIC_API_KEY, OPENAI_API_KEY or DIOSC_OLLAMA_URL for a real model.');
}
lines.push('', `  Tutorial: ${example.tutorial}. Ctrl+C stops.`, '');
process.stdout.write(`${lines.join('\n')}\n`);

const stop = async () => {
  await site.close();
  await hub.close();
  await store.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
