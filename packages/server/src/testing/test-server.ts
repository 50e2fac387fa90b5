import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AccountLimits } from '../account/limits.js';
import { type BuildAppOptions, buildApp } from '../app.js';
import { systemClock } from '../clock.js';
import type { ServerConfig } from '../config.js';
import { openTestStore, type TestDialect, type TestStore } from './test-store.js';

export interface TestServer extends TestStore {
  app: FastifyInstance;
  /** e.g. http://127.0.0.1:43121 — real HTTP on loopback. */
  url: string;
}

export interface TestServerOptions {
  dialect?: TestDialect;
  limits?: Partial<AccountLimits>;
  /** Use the wall clock instead of the test's manual clock (for real browsers and cookies). */
  realClock?: boolean;
  /** Configuration over the test defaults (temp data dir, owner password, the server's own origin). */
  config?: Partial<ServerConfig>;
  /** Pino options for the app's logger (a `stream` captures its lines); silent by default. */
  logger?: BuildAppOptions['logger'];
  /** Any other options of `buildApp` (a feature's own options, say), passed through as given. */
  app?: Omit<Partial<BuildAppOptions>, 'config' | 'store' | 'clock' | 'limits' | 'logger'>;
  /** Registers plugins or routes (a feature under test, a test page) before the server listens. */
  configure?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * The loopback address to listen on (default 127.0.0.1); another one (127.0.0.2) leaves the same
   * port free on 127.0.0.1 for something in front of the server, such as a forwarding proxy.
   */
  listenHost?: string;
}

/** A free loopback port, learned first so the app is built with the matching public origin. */
function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The whole server, listening on an ephemeral loopback port, over a fresh seeded store. Its public
 * origin is its own URL, so Origin checks see what a browser would send.
 *
 * @example
 * const server = await startTestServer({
 *   configure: async (app) => app.register(myPlugin, { prefix: '/api/my' }),
 * });
 * const response = await fetch(`${server.url}/healthz`);
 * await server.close();
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const testStore = await openTestStore(options.dialect);
  const host = options.listenHost ?? '127.0.0.1';
  const port = await freePort();
  const url = `http://${host}:${port}`;
  const config: ServerConfig = {
    ...testStore.config,
    port,
    host,
    publicOrigin: url,
    ...options.config,
  };
  const app = await buildApp({
    // A test reads the usage row of the call it just made: rows are written at the end of the turn.
    usageFlushMs: 0,
    ...options.app,
    config,
    store: testStore.store,
    clock: options.realClock ? systemClock : testStore.clock,
    limits: options.limits,
    logger: options.logger ?? false,
  });
  await options.configure?.(app);
  await app.listen({ host, port });
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
