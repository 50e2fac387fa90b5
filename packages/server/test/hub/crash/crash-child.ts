// A hub instance in its own process for the crash tests: it serves over the parent's store and,
// at the point it was asked to crash at, announces `HOLD <point>` on stdout and waits there to be
// SIGKILLed. Nothing about the kill depends on timing: the parent kills on the announcement.
import { buildApp } from '../../../src/app.js';
import type { ServerConfig } from '../../../src/config.js';
import { createScriptedModel } from '../../../src/hub/model/scripted/scripted-model.js';
import { openConfiguredStore } from '../../../src/store/configured-store.js';
import { crashScript, tallyTool } from './crash-script.js';

export type CrashPoint = 'model.delta' | 'server-tool' | 'file.chunk';

export interface CrashChildArgs {
  config: ServerConfig;
  crashAt: CrashPoint;
  leaseMs: number;
  sideEffectFile: string;
}

const args = JSON.parse(process.argv[2] ?? '{}') as CrashChildArgs;

async function holdForever(point: CrashPoint): Promise<never> {
  process.stdout.write(`HOLD ${point}\n`);
  return new Promise<never>(() => {});
}

const store = await openConfiguredStore(args.config);
const app = await buildApp({
  config: args.config,
  store,
  logger: false,
  hub: {
    scriptedModels: { test: createScriptedModel(crashScript) },
    turnLeaseMs: args.leaseMs,
    extraServerTools: () => [
      tallyTool(args.sideEffectFile, async () => {
        if (args.crashAt === 'server-tool') await holdForever('server-tool');
      }),
    ],
    hold: async (point) => {
      if (point.at === args.crashAt) await holdForever(point.at);
    },
  },
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
