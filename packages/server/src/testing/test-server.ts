import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import type { AccountLimits } from '../account/limits.js';
import { type BuildAppOptions, buildApp } from '../app.js';
import { systemClock } from '../clock.js';
import type { ServerConfig } from '../config.js';
import { openConfiguredStore } from '../store/configured-store.js';
import type { Store } from '../store/dialect.js';
import type { TestDialect } from './dialects.js';
import { openTestStore, type TestStore } from './test-store.js';

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
  app?: Omit<Partial<BuildAppOptions>, 'config' | 'store' | 'coreStore' | 'clock' | 'limits' | 'logger'>;
  /**
   * Kysely plugins over a second connection to the test store that only the account core uses
   * (`buildApp({ coreStore })`): a plugin can hold one of the core's statements (a slow disk, a
   * busy database) while the rest of the server and the test read on their own connection.
   */
  coreStorePlugins?: readonly KyselyPlugin[];
  /** Registers plugins or routes (a feature under test, a test page) before the server listens. */
  configure?: (app: FastifyInstance) => void | Promise<void>;
  /**
   * The loopback address to listen on (default 127.0.0.1); another one (127.0.0.2) leaves the same
   * port free on 127.0.0.1 for something in front of the server, such as a forwarding proxy.
   */
  listenHost?: string;
}

/** A free loopback port, learned first so the app is built with the matching public origin. */
export function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Another connection to the same database (SQLite file or PostgreSQL), with the given plugins. */
async function openPluggedStore(config: ServerConfig, plugins: readonly KyselyPlugin[]): Promise<Store> {
  const base = await openConfiguredStore(config);
  const db = plugins.reduce((plugged, plugin) => plugged.withPlugin(plugin), base.db);
  // Compiled reads skip the plugins, as they skip Kysely: the plugins here hold writes only.
  return {
    db,
    dialect: base.dialect,
    read: (query) => base.read(query),
    ...(base.observeErrors && { observeErrors: base.observeErrors }),
    close: () => base.close(),
  };
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
  const coreStore = options.coreStorePlugins?.length
    ? await openPluggedStore(testStore.config, options.coreStorePlugins)
    : undefined;
  const app = await buildApp({
    // No test may depend on the batch's timer (a loaded machine runs it late): rows wait until the
    // test awaits `app.diosc.usage.flush()`, reads through `usage.list`, or the server closes.
    usageFlushMs: 60 * 60_000,
    ...options.app,
    config,
    store: testStore.store,
    coreStore,
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
      await coreStore?.close();
      await testStore.close();
    },
  };
}
