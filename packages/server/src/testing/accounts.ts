import { createAccounts } from '../account/accounts.js';
import { seedDemoData } from '../account/demo-data.js';
import { hashPassword } from '../auth/passwords.js';
import type { Store } from '../store/dialect.js';

/**
 * Another account beside the first-run owner, with a password to sign in with and the demo
 * collections: for tests where a different owner signs in on the same browser or server.
 *
 * @example
 * const other = await createTestAccount(server.store, { email: 'b@localhost', password: 'pw of b' });
 */
export async function createTestAccount(
  store: Store,
  account: { email: string; password: string; displayName?: string },
  now = Date.now(),
): Promise<string> {
  const accountId = await createAccounts(store.db).create(
    {
      email: account.email,
      displayName: account.displayName ?? account.email,
      passwordHash: await hashPassword(account.password),
    },
    now,
  );
  await seedDemoData(store.db, accountId, now);
  return accountId;
}
