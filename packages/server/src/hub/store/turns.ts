import { randomUUID } from 'node:crypto';
import type { PageRegistry, TurnStatus, TurnView } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database, HubTurnsTable } from '../../store/schema.js';

export interface TurnRecord {
  id: string;
  conversationId: string;
  status: TurnStatus;
  step: number;
  registry: PageRegistry;
  error: { code: string; message: string } | null;
}

function toRecord(row: HubTurnsTable): TurnRecord {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    status: row.status,
    step: Number(row.step),
    registry: JSON.parse(row.registry_json) as PageRegistry,
    error: row.error_json ? (JSON.parse(row.error_json) as TurnRecord['error']) : null,
  };
}

export function turnView(turn: TurnRecord): TurnView {
  return { id: turn.id, status: turn.status, ...(turn.error ? { error: turn.error } : {}) };
}

export const FINAL_STATUSES: readonly TurnStatus[] = ['done', 'failed', 'cancelled'];

/**
 * Turns, the state machine `running → waiting → running → done | failed | cancelled`; this module
 * owns `hub_turns`. Every transition is a compare-and-set on the status, and the step runner holds a
 * lease, so two runners (two instances, or a resume racing an answer) never run one step twice.
 */
export function createTurns(db: Kysely<Database>, clock: Clock) {
  return {
    async create(
      conversationId: string,
      registry: PageRegistry,
      id = `trn_${randomUUID()}`,
    ): Promise<TurnRecord> {
      const now = clock.now();
      const row: HubTurnsTable = {
        id,
        conversation_id: conversationId,
        status: 'running',
        step: 0,
        registry_json: JSON.stringify(registry),
        error_json: null,
        lease_owner: null,
        lease_until: null,
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('hub_turns').values(row).execute();
      return toRecord(row);
    },

    async get(id: string): Promise<TurnRecord | undefined> {
      const row = await db.selectFrom('hub_turns').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    /** The turn with who it is for (its conversation's assistant and visitor): what a run starts from. */
    async getForRun(
      id: string,
    ): Promise<{ turn: TurnRecord; assistantId: string; visitorId: string } | undefined> {
      const row = await db
        .selectFrom('hub_turns')
        .innerJoin('hub_conversations', 'hub_conversations.id', 'hub_turns.conversation_id')
        .selectAll('hub_turns')
        .select([
          'hub_conversations.assistant_id as assistant_id',
          'hub_conversations.visitor_id as visitor_id',
        ])
        .where('hub_turns.id', '=', id)
        .executeTakeFirst();
      return row
        ? { turn: toRecord(row), assistantId: row.assistant_id, visitorId: row.visitor_id }
        : undefined;
    },

    async latestOf(conversationId: string): Promise<TurnRecord | undefined> {
      const row = await db
        .selectFrom('hub_turns')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    /**
     * Moves the turn from one of `from` to `to`; false when another transition came first. A turn
     * that ends or waits gives its lease up, unless `keepLease` (its runner still has server calls
     * of the step to run while it waits).
     */
    async transition(
      id: string,
      from: readonly TurnStatus[],
      to: TurnStatus,
      error?: { code: string; message: string },
      options: { keepLease?: boolean } = {},
    ): Promise<boolean> {
      const result = await db
        .updateTable('hub_turns')
        .set({
          status: to,
          updated_at: clock.now(),
          ...(error ? { error_json: JSON.stringify(error) } : {}),
          // A turn that ends or waits holds no lease: whoever runs it next takes one.
          ...(FINAL_STATUSES.includes(to) || (to === 'waiting' && !options.keepLease)
            ? { lease_owner: null, lease_until: null }
            : {}),
        })
        .where('id', '=', id)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * A waiting turn goes on, its lease handed to `owner` in the same statement: the instance that
     * took the answer runs the next step without taking the lease again. `closing` also ends that
     * step (its results are appended by the caller in the same transaction). Not while another
     * runner holds the lease: it is still running the step's server calls and goes on by itself.
     */
    async resume(id: string, owner: string, ms: number, closing?: { step: number }): Promise<boolean> {
      const now = clock.now();
      const result = await db
        .updateTable('hub_turns')
        .set({
          status: 'running',
          updated_at: now,
          lease_owner: owner,
          lease_until: now + ms,
          ...(closing ? { step: closing.step + 1 } : {}),
        })
        .where('id', '=', id)
        .where('status', '=', 'waiting')
        .where((eb) =>
          eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', owner), eb('lease_until', '<', now)]),
        )
        .$if(closing !== undefined, (query) => query.where('step', '=', closing!.step))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async setRegistry(id: string, registry: PageRegistry): Promise<void> {
      await db
        .updateTable('hub_turns')
        .set({ registry_json: JSON.stringify(registry), updated_at: clock.now() })
        .where('id', '=', id)
        .execute();
    },

    async advanceStep(id: string, fromStep: number): Promise<boolean> {
      const result = await db
        .updateTable('hub_turns')
        .set({ step: fromStep + 1, updated_at: clock.now() })
        .where('id', '=', id)
        .where('step', '=', fromStep)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Takes (or renews) the right to run this turn's steps until `now + ms`. */
    async lease(id: string, owner: string, ms: number): Promise<boolean> {
      const now = clock.now();
      const result = await db
        .updateTable('hub_turns')
        .set({ lease_owner: owner, lease_until: now + ms })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where((eb) =>
          eb.or([eb('lease_owner', 'is', null), eb('lease_owner', '=', owner), eb('lease_until', '<', now)]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Extends a lease this owner holds; false when it was lost (it lapsed and another took it). */
    async renewLease(id: string, owner: string, ms: number): Promise<boolean> {
      const result = await db
        .updateTable('hub_turns')
        .set({ lease_until: clock.now() + ms })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async releaseLease(id: string, owner: string): Promise<void> {
      await db
        .updateTable('hub_turns')
        .set({ lease_owner: null, lease_until: null })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .execute();
    },

    /** Running turns nobody holds (a restart, a crashed instance): to be resumed. */
    async orphaned(limit = 100): Promise<string[]> {
      const now = clock.now();
      const rows = await db
        .selectFrom('hub_turns')
        .select('id')
        .where('status', '=', 'running')
        .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_until', '<', now)]))
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },
  };
}

export type Turns = ReturnType<typeof createTurns>;
