import { systemClock } from '../clock.js';
import { loadConfig, type ServerConfig } from '../config.js';
import { ensureOwner, type FirstRunResult } from '../first-run.js';
import { openConfiguredStore } from '../store/configured-store.js';
import type { Store } from '../store/dialect.js';

export interface LocalStore {
  config: ServerConfig;
  store: Store;
  owner: FirstRunResult;
}

/**
 * The store the server would use with the same configuration (DIOSC_CONFIG, DIOSC_DATA_DIR,
 * DATABASE_URL…), with the owner account made sure of, exactly as `npm start` does on first run.
 */
export async function openLocalStore(env: NodeJS.ProcessEnv = process.env): Promise<LocalStore> {
  const config = loadConfig(env);
  const store = await openConfiguredStore(config);
  const owner = await ensureOwner(store, config, systemClock);
  return { config, store, owner };
}

/** Lines telling the operator the first-run password, when this command created the owner. */
export function firstRunLines(owner: FirstRunResult): string[] {
  if (!owner.created) return [];
  return owner.generatedPassword
    ? [`Created the owner ${owner.email}; its password (shown once): ${owner.generatedPassword}`]
    : [`Created the owner ${owner.email} with the password from DIOSC_OWNER_PASSWORD.`];
}
