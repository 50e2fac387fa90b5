import { buildApp } from '../app.js';
import type { DioscContext } from '../context.js';
import { openLocalStore } from './local-store.js';

/**
 * The server's app over the local store, built but not listening: CLI commands reach the hub the
 * way the server does (the same services, the same checks), then close it.
 */
export async function openLocalApp(env: NodeJS.ProcessEnv = process.env): Promise<{
  diosc: DioscContext;
  accountId: string;
  close(): Promise<void>;
}> {
  const local = await openLocalStore(env);
  const app = await buildApp({ config: local.config, store: local.store, logger: false, hub: { env } });
  return {
    diosc: app.diosc,
    accountId: local.owner.accountId,
    async close() {
      await app.close();
      await local.store.close();
    },
  };
}
