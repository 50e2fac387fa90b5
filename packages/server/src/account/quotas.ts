import { DioscError } from '@diosc/protocol';
import type { Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import { lockAccountRow } from './accounts.js';
import type { AccountLimits } from './limits.js';

/** Refuses a change that would take the account past its item or byte quota. Runs inside the write. */
export async function assertWithinQuota(
  trx: Transaction<Database>,
  accountId: string,
  limits: AccountLimits,
  change: { itemsDelta: number; bytesDelta: number },
): Promise<void> {
  if (change.itemsDelta <= 0 && change.bytesDelta <= 0) return;
  // Serialize growing writes per account: on PostgreSQL (READ COMMITTED) two transactions would
  // otherwise both count the same usage and together overrun the quota. A no-op update of the
  // account row takes its row lock until commit; SQLite already runs one write transaction at a time.
  await lockAccountRow(trx, accountId);
  const usage = await trx
    .selectFrom('items')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('items'),
      eb.fn.sum<number | string | null>('size_bytes').as('bytes'),
    ])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const items = Number(usage.items) + change.itemsDelta;
  const bytes = Number(usage.bytes ?? 0) + change.bytesDelta;
  if (items > limits.maxItemsPerAccount) {
    throw new DioscError(
      'quota_exceeded',
      `The account may hold at most ${limits.maxItemsPerAccount} items.`,
    );
  }
  if (bytes > limits.maxBytesPerAccount) {
    throw new DioscError(
      'quota_exceeded',
      `The account may hold at most ${limits.maxBytesPerAccount} bytes.`,
    );
  }
}
