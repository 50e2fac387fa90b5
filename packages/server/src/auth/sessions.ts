import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.js';
import { revokeSessionBrowserAccess } from '../connections/connections.js';
import type { Database, SessionsTable } from '../store/schema.js';
import { newCsrfSecret } from './csrf.js';
import { hashToken, randomSecret } from './secrets.js';

/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 30 * 60_000;
/** …and after this long whatever happens. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
/** last_seen_at is written at most this often, so reads do not each cost a write. */
const TOUCH_EVERY_MS = 15_000;

export type SessionRow = SessionsTable;

export type ResolvedSession =
  | { status: 'live'; session: SessionRow }
  | { status: 'ended' }
  | { status: 'unknown' };

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Owner sessions. The cookie holds a random ID; the store holds only its SHA-256. There is one live
 * session per account: signing in ends every earlier session (and the browser access bound to it).
 * `sessions.generation` holds the account's session generation as of the row's last change, so the
 * account's current generation is the maximum over its rows; sign-in and sign-out each raise it.
 */
export function createSessions(db: Kysely<Database>, clock: Clock) {
  async function generationOf(executor: Executor, accountId: string): Promise<number> {
    const row = await executor
      .selectFrom('sessions')
      .select((eb) => eb.fn.max('generation').as('generation'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(row?.generation ?? 0);
  }

  async function endWhere(executor: Executor, accountId: string, idHashes: string[], now: number) {
    if (idHashes.length === 0) return;
    await executor
      .updateTable('sessions')
      .set({ ended_at: now })
      .where('id_hash', 'in', idHashes)
      .where('ended_at', 'is', null)
      .execute();
    await revokeSessionBrowserAccess(executor, accountId, idHashes, now);
  }

  /** Ends every live session of the account (and their browser access); returns how many. */
  async function endLive(executor: Executor, accountId: string, now: number): Promise<number> {
    const live = await executor
      .selectFrom('sessions')
      .select('id_hash')
      .where('account_id', '=', accountId)
      .where('ended_at', 'is', null)
      .execute();
    await endWhere(
      executor,
      accountId,
      live.map((row) => row.id_hash),
      now,
    );
    return live.length;
  }

  return {
    generationOf: (accountId: string) => generationOf(db, accountId),

    /** Starts a new session, ending every earlier one of the account. The ID is returned once. */
    async start(accountId: string): Promise<{ sessionId: string; session: SessionRow }> {
      const sessionId = randomSecret(32);
      const now = clock.now();
      const session = await db.transaction().execute(async (trx) => {
        await endLive(trx, accountId, now);
        const row: SessionRow = {
          id_hash: hashToken(sessionId),
          account_id: accountId,
          generation: (await generationOf(trx, accountId)) + 1,
          csrf_secret: newCsrfSecret(),
          created_at: now,
          last_seen_at: now,
          expires_at: now + SESSION_ABSOLUTE_MS,
          ended_at: null,
        };
        await trx.insertInto('sessions').values(row).execute();
        return row;
      });
      return { sessionId, session };
    },

    /** Looks a cookie value up by its hash; a session past its idle or absolute expiry is ended here. */
    async resolve(sessionId: string): Promise<ResolvedSession> {
      if (sessionId.length === 0 || sessionId.length > 128) return { status: 'unknown' };
      const row = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id_hash', '=', hashToken(sessionId))
        .executeTakeFirst();
      if (!row) return { status: 'unknown' };
      if (row.ended_at !== null) return { status: 'ended' };
      const now = clock.now();
      if (now >= row.expires_at || now - row.last_seen_at >= SESSION_IDLE_MS) {
        await endWhere(db, row.account_id, [row.id_hash], now);
        return { status: 'ended' };
      }
      if (now - row.last_seen_at >= TOUCH_EVERY_MS) {
        await db
          .updateTable('sessions')
          .set({ last_seen_at: now })
          .where('id_hash', '=', row.id_hash)
          .execute();
        row.last_seen_at = now;
      }
      return { status: 'live', session: row };
    },

    /** Whether a session (by ID hash) is still live: not ended, not past its absolute expiry. */
    async isLive(idHash: string): Promise<boolean> {
      const row = await db
        .selectFrom('sessions')
        .select(['ended_at', 'expires_at'])
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
      return row !== undefined && row.ended_at === null && clock.now() < row.expires_at;
    },

    /** Ends every live session of the account and revokes their browser access; returns how many ended. */
    async endAll(accountId: string): Promise<number> {
      const now = clock.now();
      return db.transaction().execute((trx) => endLive(trx, accountId, now));
    },

    /** Sign-out: ends the session, revokes its browser access and raises the account's generation. */
    async end(session: SessionRow): Promise<number> {
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const generation = (await generationOf(trx, session.account_id)) + 1;
        await trx
          .updateTable('sessions')
          .set({ ended_at: now, generation })
          .where('id_hash', '=', session.id_hash)
          .execute();
        await revokeSessionBrowserAccess(trx, session.account_id, [session.id_hash], now);
        return generation;
      });
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
