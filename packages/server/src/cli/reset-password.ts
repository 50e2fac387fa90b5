import { DioscError } from '@diosc/protocol';
import { findAccountByEmail, setPassword } from '../account/accounts.js';
import { randomSecret } from '../auth/secrets.js';
import { systemClock } from '../clock.js';
import { openLocalStore } from './local-store.js';

/**
 * `diosc reset-password`: gives the owner a new generated password, printed once, and signs out
 * every portal session so whoever held the old password is out too.
 */
export async function resetPasswordCommand(argv: string[], out: (line: string) => void): Promise<void> {
  if (argv.length > 0) throw new DioscError('invalid_input', 'Usage: diosc reset-password');
  const local = await openLocalStore();
  try {
    const account = await findAccountByEmail(local.store.db, local.config.ownerEmail);
    if (!account) throw new DioscError('not_found', `There is no account ${local.config.ownerEmail}.`);
    const password = randomSecret(12);
    await setPassword(local.store.db, account.id, password);
    const ended = await local.store.db
      .updateTable('sessions')
      .set({ ended_at: systemClock.now() })
      .where('account_id', '=', account.id)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    out(`New password for ${account.email} (shown once): ${password}`);
    out(`Signed out ${Number(ended.numUpdatedRows)} portal session(s).`);
  } finally {
    await local.store.close();
  }
}
