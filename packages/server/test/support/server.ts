import type { FastifyInstance } from 'fastify';
import type { AccountLimits } from '../../src/account/limits.js';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import type { HubOptions } from '../../src/hub/hub-context.js';
import { type DIALECTS, openTestStore, type TestStore } from './store.js';

export interface TestServer extends TestStore {
  app: FastifyInstance;
  /** e.g. http://127.0.0.1:43121 — real HTTP on loopback. */
  url: string;
}

/**
 * The whole server, listening on an ephemeral loopback port, over a fresh seeded store. Its public
 * origin is its own URL, so Origin checks see what a browser would send.
 */
export async function startTestServer(
  options: {
    limits?: Partial<AccountLimits>;
    dialect?: (typeof DIALECTS)[number];
    /** Use the wall clock instead of the test's manual clock (for real browsers and cookies). */
    realClock?: boolean;
    /** Adds routes (a test page, say) before the server starts listening. */
    configure?: (app: FastifyInstance) => void;
    hub?: HubOptions;
  } = {},
): Promise<TestServer> {
  const testStore = await openTestStore(options.dialect);
  // Learn a free port first, so the app is built with the matching public origin.
  const net = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const config = { ...testStore.config, port, host: '127.0.0.1', publicOrigin: url };
  const app = await buildApp({
    config,
    store: testStore.store,
    clock: options.realClock ? systemClock : testStore.clock,
    limits: options.limits,
    logger: false,
    hub: options.hub,
  });
  options.configure?.(app);
  await app.listen({ host: '127.0.0.1', port });
  return {
    ...testStore,
    config,
    app,
    url,
    async close() {
      // Aborted requests can leave keep-alive sockets Node does not count as idle; drop them all.
      app.server.closeAllConnections();
      await app.close();
      await testStore.close();
    },
  };
}
