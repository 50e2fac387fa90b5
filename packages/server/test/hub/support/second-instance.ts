import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.js';
import type { HubOptions } from '../../../src/hub/hub-context.js';
import { openConfiguredStore } from '../../../src/store/configured-store.js';
import type { Store } from '../../../src/store/dialect.js';
import { HubClient, type HubTestServer } from './hub-server.js';

export interface SecondInstance {
  app: FastifyInstance;
  store: Store;
  url: string;
  /** A client on this instance that uses the given client's visitor session. */
  clientAs(of: HubClient): HubClient;
  close(): Promise<void>;
}

/**
 * Another server instance over the first one's store: its own connections, runner, event bus and
 * (on PostgreSQL) its own listening connection — a second process in all but the process.
 */
export async function startSecondInstance(of: HubTestServer, hub: HubOptions = {}): Promise<SecondInstance> {
  const store = await openConfiguredStore(of.config);
  const app = await buildApp({
    config: of.config,
    store,
    logger: false,
    hub: { sweepIntervalMs: 50, ...hub, scriptedModels: { test: of.model, ...hub.scriptedModels } },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    store,
    url,
    clientAs(client) {
      const other = new HubClient(url, client.origin);
      other.token = client.token;
      return other;
    },
    async close() {
      app.server.closeAllConnections();
      await app.close();
      await store.close();
    },
  };
}
