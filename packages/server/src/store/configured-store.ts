import { join } from 'node:path';
import type { ServerConfig } from '../config.js';
import { openStore, type Store } from './dialect.js';

/** Where the SQLite store of this configuration lives (used when no `DATABASE_URL` is set). */
export function sqlitePathOf(config: Pick<ServerConfig, 'dataDir'>): string {
  return join(config.dataDir, 'diosc.sqlite');
}

/**
 * The store a configuration names: PostgreSQL at `databaseUrl` when set, else SQLite under
 * `dataDir`. The one way `npm start`, the CLI, the tests and the benchmark open it.
 */
export function openConfiguredStore(config: Pick<ServerConfig, 'databaseUrl' | 'dataDir'>): Promise<Store> {
  return openStore({ databaseUrl: config.databaseUrl, sqlitePath: sqlitePathOf(config) });
}
