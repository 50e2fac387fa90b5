import { randomUUID } from 'node:crypto';
import { type ConnectionTransport, type ConnectionView, DioscError } from '@diosc/protocol';
import type { Kysely, Transaction } from 'kysely';
import { ownerActor } from '../audit/audit-actor.js';
import type { AuditEntry, AuditRecorder } from '../audit/audit-recorder.js';
import { hashToken, randomSecret } from '../auth/secrets.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store/dialect.js';
import type { AppConnectionsTable, Database } from '../store/schema.js';
import { prepareVersionedRead } from '../store/versioned-read.js';
import { type GrantEntry, validateGrant } from './grant.js';
import { changedCollections, grantDigest } from './grant-audit.js';

export type { ConnectionTransport, ConnectionView };

export type ConnectionRow = AppConnectionsTable;

const BEARER_COLUMNS = [
  'id',
  'account_id',
  'grant_json',
  'last_used_at',
  'revoked_at',
  'token_expires_at',
] as const;

/** What a bearer token's lookup answers: the connection as much as a call needs of it. */
export type BearerConnection = Readonly<Pick<ConnectionRow, (typeof BEARER_COLUMNS)[number]>>;

const TOKEN_PREFIX = 'dsc_';
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toView(row: ConnectionRow): ConnectionView {
  return {
    id: row.id,
    displayName: row.display_name,
    transport: row.transport,
    provenance: row.provenance,
    grant: JSON.parse(row.grant_json) as GrantEntry[],
    grantGeneration: row.grant_generation,
    tokenExpiresAt: iso(row.token_expires_at),
    createdAt: iso(row.created_at)!,
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
  };
}

/**
 * Revokes the browser access bound to the given sessions; its generation moves so holders notice.
 * Takes the caller's transaction: the sessions module ends sessions and their access together.
 */
export async function revokeSessionBrowserAccess(
  executor: Kysely<Database> | Transaction<Database>,
  accountId: string,
  sessionIdHashes: readonly string[],
  now: number,
): Promise<void> {
  if (sessionIdHashes.length === 0) return;
  await executor
    .updateTable('app_connections')
    .set((eb) => ({ revoked_at: now, grant_generation: eb('grant_generation', '+', 1) }))
    .where('account_id', '=', accountId)
    .where('transport', '=', 'browser')
    .where('session_id_hash', 'in', sessionIdHashes)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * The owner app-connection resource model: durable records of who may use an account and how.
 * HTTP MCP connections hold a hashed bearer token; browser connections are bound to one session.
 */
export function createConnections(
  store: Pick<Store, 'db' | 'read' | 'dataVersion'>,
  clock: Clock,
  audit: AuditRecorder,
) {
  const { db } = store;
  /** A grant change's audit record: always the account owner's own decision. */
  const grantChange = (
    row: Pick<ConnectionRow, 'id' | 'account_id'>,
    outcome: AuditEntry['outcome'],
    extra: { grant?: readonly GrantEntry[]; editedFields?: string[]; assistantId?: string } = {},
  ): AuditEntry => ({
    kind: 'grant_change',
    actor: ownerActor(row.account_id),
    accountId: row.account_id,
    subject: row.id,
    outcome,
    ...(extra.assistantId ? { assistantId: extra.assistantId } : {}),
    ...(extra.grant ? { argsDigest: grantDigest(extra.grant) } : {}),
    ...(extra.editedFields ? { editedFields: extra.editedFields } : {}),
  });
  // Every /mcp request reads its bearer's connection: compiled once, run on the store's read path,
  // reused until the next commit (a revocation is one). Keyed by the token's hash, as stored; only
  // the columns a call needs, so no credential hash is kept in memory.
  const byTokenHash = prepareVersionedRead(store, (db, hash: string) =>
    db
      .selectFrom('app_connections')
      .select(BEARER_COLUMNS)
      .where('token_hash', '=', hash)
      .where('transport', '=', 'http_mcp'),
  );
  /** The row, if its token is neither revoked nor expired now. */
  const live = (row: BearerConnection | undefined): BearerConnection | undefined =>
    !row || row.revoked_at !== null || (row.token_expires_at !== null && row.token_expires_at <= clock.now())
      ? undefined
      : row;
  function issueToken(): { token: string; hash: string } {
    const token = `${TOKEN_PREFIX}${randomSecret(32)}`;
    return { token, hash: hashToken(token) };
  }

  async function requireOwned(accountId: string, id: string): Promise<ConnectionRow> {
    const row = await db
      .selectFrom('app_connections')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw new DioscError('not_found', `There is no connection "${id}".`);
    return row;
  }

  return {
    /** A requested grant checked against the account's current collections (see `validateGrant`). */
    checkGrant: (accountId: string, entries: unknown): Promise<GrantEntry[]> =>
      validateGrant(db, accountId, entries),

    /** Creates an HTTP MCP connection; the returned token is the only copy that will ever exist. */
    async createMcp(
      accountId: string,
      input: {
        displayName: string;
        grant: GrantEntry[];
        expiresInMs?: number;
        provenance?: string;
        /** The assistant whose account grant this connection carries, for its audit record. */
        assistantId?: string;
      },
    ): Promise<{ connection: ConnectionView; token: string }> {
      const now = clock.now();
      const { token, hash } = issueToken();
      const row: ConnectionRow = {
        id: randomUUID(),
        account_id: accountId,
        display_name: input.displayName,
        transport: 'http_mcp',
        provenance: input.provenance ?? 'owner-portal',
        grant_json: JSON.stringify(input.grant),
        grant_generation: 1,
        session_id_hash: null,
        token_hash: hash,
        token_expires_at: input.expiresInMs ? now + input.expiresInMs : null,
        created_at: now,
        last_used_at: null,
        revoked_at: null,
      };
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('app_connections').values(row).execute();
        await audit.record(
          trx,
          grantChange(row, 'created', {
            grant: input.grant,
            editedFields: input.grant.map((entry) => entry.collection),
            assistantId: input.assistantId,
          }),
        );
      });
      return { connection: toView(row), token };
    },

    /**
     * Creates the browser-session access record, revoking any earlier one of the account. Its grant
     * generation continues the account's browser sequence, so a replaced selection can never be
     * mistaken for the one a page registered its tools from. One transaction: no window in which
     * two live records or a reused generation exist.
     */
    async createBrowser(
      accountId: string,
      sessionIdHash: string,
      grant: GrantEntry[],
    ): Promise<ConnectionRow> {
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const previous = await trx
          .selectFrom('app_connections')
          .select((eb) => eb.fn.max('grant_generation').as('generation'))
          .where('account_id', '=', accountId)
          .where('transport', '=', 'browser')
          .executeTakeFirst();
        await trx
          .updateTable('app_connections')
          .set({ revoked_at: now })
          .where('account_id', '=', accountId)
          .where('transport', '=', 'browser')
          .where('revoked_at', 'is', null)
          .execute();
        const row: ConnectionRow = {
          id: randomUUID(),
          account_id: accountId,
          display_name: 'Browser tools (this session)',
          transport: 'browser',
          provenance: 'owner-browser-consent',
          grant_json: JSON.stringify(grant),
          grant_generation: Number(previous?.generation ?? 0) + 1,
          session_id_hash: sessionIdHash,
          token_hash: null,
          token_expires_at: null,
          created_at: now,
          last_used_at: null,
          revoked_at: null,
        };
        await trx.insertInto('app_connections').values(row).execute();
        await audit.record(
          trx,
          grantChange(row, 'created', { grant, editedFields: grant.map((entry) => entry.collection) }),
        );
        return row;
      });
    },

    async list(accountId: string, transport?: ConnectionTransport): Promise<ConnectionView[]> {
      let query = db
        .selectFrom('app_connections')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc');
      if (transport) query = query.where('transport', '=', transport);
      return (await query.execute()).map(toView);
    },

    get: requireOwned,

    /**
     * The live connection a bearer token names, or undefined for unknown, revoked or expired
     * tokens. `dataVersion` is the store's change counter as read at the start of this call, if the
     * caller read it. Answered at once, without a promise, when the row read under that counter is
     * kept already (see `VersionedRead.given`).
     */
    findByToken(
      token: string,
      dataVersion?: number,
    ): BearerConnection | undefined | Promise<BearerConnection | undefined> {
      if (!token.startsWith(TOKEN_PREFIX)) return undefined;
      const rows = byTokenHash.given(dataVersion, hashToken(token));
      return rows instanceof Promise ? rows.then(([row]) => live(row)) : live(rows[0]);
    },

    /** The live browser-access record of a session, if browser tools are enabled there. */
    async findBrowserForSession(
      accountId: string,
      sessionIdHash: string,
    ): Promise<ConnectionRow | undefined> {
      return db
        .selectFrom('app_connections')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('transport', '=', 'browser')
        .where('session_id_hash', '=', sessionIdHash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
    },

    async changeGrant(
      accountId: string,
      id: string,
      grant: GrantEntry[],
      scope: { assistantId?: string } = {},
    ): Promise<ConnectionView> {
      const row = await requireOwned(accountId, id);
      if (row.revoked_at !== null) throw new DioscError('revoked', 'This connection has been revoked.');
      await db.transaction().execute(async (trx) => {
        // Compare-and-set on the generation read: of two concurrent changes, the second refuses
        // rather than overwriting a grant its owner never saw (and no record is written for it).
        const result = await trx
          .updateTable('app_connections')
          .set({ grant_json: JSON.stringify(grant), grant_generation: row.grant_generation + 1 })
          .where('id', '=', id)
          .where('grant_generation', '=', row.grant_generation)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1)
          throw new DioscError('generation_changed', 'The connection changed meanwhile; reload it.');
        const before = JSON.parse(row.grant_json) as GrantEntry[];
        await audit.record(
          trx,
          grantChange(row, 'changed', {
            grant,
            editedFields: changedCollections(before, grant),
            assistantId: scope.assistantId,
          }),
        );
      });
      return toView(await requireOwned(accountId, id));
    },

    /** Replaces the token; the old one stops working at once. */
    async rotate(
      accountId: string,
      id: string,
      expiresInMs?: number,
    ): Promise<{ connection: ConnectionView; token: string }> {
      const row = await requireOwned(accountId, id);
      if (row.revoked_at !== null) throw new DioscError('revoked', 'This connection has been revoked.');
      if (row.transport !== 'http_mcp')
        throw new DioscError('unavailable', 'Only HTTP MCP connections have tokens.');
      const { token, hash } = issueToken();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('app_connections')
          .set({ token_hash: hash, token_expires_at: expiresInMs ? clock.now() + expiresInMs : null })
          .where('id', '=', id)
          .execute();
        await audit.record(trx, grantChange(row, 'rotated'));
      });
      return { connection: toView(await requireOwned(accountId, id)), token };
    },

    async revoke(accountId: string, id: string): Promise<ConnectionView> {
      const row = await requireOwned(accountId, id);
      if (row.revoked_at === null) {
        await db.transaction().execute(async (trx) => {
          // Only the revocation that happens is recorded: a second one changes nothing.
          const result = await trx
            .updateTable('app_connections')
            .set({ revoked_at: clock.now(), grant_generation: row.grant_generation + 1 })
            .where('id', '=', id)
            .where('revoked_at', 'is', null)
            .executeTakeFirst();
          if (Number(result.numUpdatedRows) === 1) await audit.record(trx, grantChange(row, 'revoked'));
        });
      }
      return toView(await requireOwned(accountId, id));
    },

    async touch(id: string): Promise<void> {
      await db
        .updateTable('app_connections')
        .set({ last_used_at: clock.now() })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type Connections = ReturnType<typeof createConnections>;
