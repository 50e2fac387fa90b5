import { DioscError } from '@diosc/protocol';
import { createAccounts } from '../account/accounts.js';
import { hashPassword } from '../auth/passwords.js';
import { randomSecret } from '../auth/secrets.js';
import { createSessions } from '../auth/sessions.js';
import { systemClock } from '../clock.js';
import { openLocalStore } from './local-store.js';

/**
 * `diosc reset-password`: gives the owner a new generated password, printed once, and signs out
 * every portal session (revoking its browser access) so whoever held the old password is out too.
 */
export async function resetPasswordCommand(
  argv: string[],
  out: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (argv.length > 0) throw new DioscError('invalid_input', 'Usage: diosc reset-password');
  const local = await openLocalStore(env);
  try {
    const accounts = createAccounts(local.store.db);
    const account = await accounts.findByEmail(local.config.ownerEmail);
    if (!account) throw new DioscError('not_found', `There is no account ${local.config.ownerEmail}.`);
    const password = randomSecret(12);
    await accounts.setPasswordHash(account.id, await hashPassword(password));
    const ended = await createSessions(local.store.db, systemClock).endAll(account.id);
    out(`New password for ${account.email} (shown once): ${password}`);
    out(`Signed out ${ended} portal session(s).`);
  } finally {
    await local.store.close();
  }
}
