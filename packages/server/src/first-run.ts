import { createAccounts } from './account/accounts.js';
import { seedDemoData } from './account/demo-data.js';
import { hashPassword } from './auth/passwords.js';
import { randomSecret } from './auth/secrets.js';
import type { Clock } from './clock.js';
import type { ServerConfig } from './config.js';
import type { Store } from './store/dialect.js';

export interface FirstRunResult {
  accountId: string;
  email: string;
  /** Only on the run that created the owner and generated the password; never stored in plain text. */
  generatedPassword?: string;
  created: boolean;
}

/** Creates the owner account and the demo collections if the store has no owner yet. */
export async function ensureOwner(store: Store, config: ServerConfig, clock: Clock): Promise<FirstRunResult> {
  const accounts = createAccounts(store.db);
  const existing = await accounts.findByEmail(config.ownerEmail);
  if (existing) return { accountId: existing.id, email: existing.email, created: false };
  const generatedPassword = config.ownerPassword ? undefined : randomSecret(12);
  const password = config.ownerPassword ?? generatedPassword!;
  const now = clock.now();
  const accountId = await accounts.create(
    { email: config.ownerEmail, displayName: 'Owner', passwordHash: await hashPassword(password) },
    now,
  );
  await seedDemoData(store.db, accountId, now);
  return { accountId, email: config.ownerEmail.toLowerCase(), generatedPassword, created: true };
}
