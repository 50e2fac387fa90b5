import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashPassword } from '../auth/passwords.js';
import type { Database } from '../store/schema.js';

export interface NewAccount {
  email: string;
  displayName: string;
  password: string;
}

export async function createAccount(db: Kysely<Database>, account: NewAccount, now: number): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('accounts')
    .values({
      id,
      email: account.email.toLowerCase(),
      display_name: account.displayName,
      password_hash: await hashPassword(account.password),
      created_at: now,
    })
    .execute();
  return id;
}

export async function findAccountByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('accounts').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function setPassword(db: Kysely<Database>, accountId: string, password: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ password_hash: await hashPassword(password) })
    .where('id', '=', accountId)
    .execute();
}
