import { startReceiptPruner } from './account/receipt-pruner.js';
import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { loadConfig, type ServerConfig } from './config.js';
import { ensureOwner } from './first-run.js';
import { applyAssistantsFile } from './hub/assistant-admin/assistants-file.js';
import { ensureDemoAssistant } from './hub/assistant-admin/demo-assistant.js';
import { hubServicesOf } from './hub/hub-services-of.js';
import { recordServerUrl } from './server-url-record.js';
import { startBanner } from './start-banner.js';
import { openConfiguredStore, sqlitePathOf } from './store/configured-store.js';

/**
 * The address people open: the public origin, with the port the server really got when the
 * configured one was 0 (`address` is Fastify's listen address, or `:<port>`).
 */
function portalUrl(config: ServerConfig, address: string): string {
  const port = /:(\d+)$/.exec(address)?.[1];
  return port && config.publicOrigin.endsWith(`:${config.port}`)
    ? config.publicOrigin.replace(/:\d+$/, `:${port}`)
    : config.publicOrigin;
}

/**
 * `diosc start` (what `npm start` runs): open (or create) the store, make sure the owner exists,
 * serve, and shut down cleanly on SIGINT/SIGTERM. Resolves once the server listens; the process
 * then lives as long as the server does.
 */
export async function startServer(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = loadConfig(env);
  const store = await openConfiguredStore(config);
  const owner = await ensureOwner(store, config, systemClock);
  const app = await buildApp({ config, store, hub: { env } });
  const stopPruner = startReceiptPruner({
    receipts: app.diosc.core.receipts,
    limits: app.diosc.core.limits,
    onError: (error) => app.log.warn({ err: error }, 'receipt pruning failed'),
  });
  app.addHook('onClose', async () => stopPruner());
  const fromFile = config.assistantsFile
    ? await applyAssistantsFile(app.diosc, owner.accountId, config.assistantsFile)
    : undefined;
  await ensureDemoAssistant(app.diosc, owner.accountId);
  // Fastify's own line names the socket (http://127.0.0.1:3000), where sign-in would fail the
  // exact-origin rule; it names the one address that works instead, the same as the banner.
  await app.listen({
    host: config.host,
    port: config.port,
    listenTextResolver: (address) => `Diosc is listening; open ${portalUrl(config, address)}`,
  });
  const address = app.server.address();
  const url = portalUrl(config, typeof address === 'object' && address ? `:${address.port}` : '');
  try {
    // For the CLI, which may run without this process's environment (`diosc connections create`).
    recordServerUrl(config.dataDir, url);
  } catch (error) {
    app.log.warn({ err: error }, 'could not record the server address in the data dir');
  }
  const lines = await startBanner({
    url,
    storeLabel: store.dialect === 'sqlite' ? sqlitePathOf(config) : 'PostgreSQL (DATABASE_URL)',
    owner,
    assistantsFile:
      fromFile && config.assistantsFile
        ? { path: config.assistantsFile, created: fromFile.created.length, updated: fromFile.updated.length }
        : undefined,
    hub: hubServicesOf(app.diosc),
  });
  // The credentials go to the terminal only, never through the logger.
  process.stdout.write(`${lines.join('\n')}\n\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
