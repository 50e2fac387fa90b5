import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { AccountsTable, Database } from '../store/schema.js';

export type AccountRow = AccountsTable;

export interface NewAccount {
  email: string;
  displayName: string;
  /** Already hashed by the caller (`auth/passwords.ts`): the account core never sees a password. */
  passwordHash: string;
}

/** The `accounts` table. Its one module: every query on it is here. */
export function createAccounts(db: Kysely<Database>) {
  return {
    async create(account: NewAccount, now: number): Promise<string> {
      const id = randomUUID();
      await db
        .insertInto('accounts')
        .values({
          id,
          email: account.email.toLowerCase(),
          display_name: account.displayName,
          password_hash: account.passwordHash,
          created_at: now,
        })
        .execute();
      return id;
    },

    findByEmail(email: string): Promise<AccountRow | undefined> {
      return db
        .selectFrom('accounts')
        .selectAll()
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst();
    },

    findById(id: string): Promise<AccountRow | undefined> {
      return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async setPasswordHash(accountId: string, passwordHash: string): Promise<void> {
      await db
        .updateTable('accounts')
        .set({ password_hash: passwordHash })
        .where('id', '=', accountId)
        .execute();
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;

/**
 * Takes the account row's lock until the transaction ends (a no-op update): growing writes of one
 * account then run one at a time, so their quota checks cannot both count the same usage.
 */
export async function lockAccountRow(trx: Transaction<Database>, accountId: string): Promise<void> {
  await trx
    .updateTable('accounts')
    .set((eb) => ({ display_name: eb.ref('display_name') }))
    .where('id', '=', accountId)
    .execute();
}
