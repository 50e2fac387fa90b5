import { randomUUID } from 'node:crypto';
import type { PageRegistry, TurnStatus, TurnView } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database, HubTurnsTable } from '../../store/schema.js';
import { type AssistantRecord, assistantRecordOf } from '../assistants/assistants.js';

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

/** A turn as its runner starts on it (`getForRun`). */
export interface TurnRun {
  turn: TurnRecord;
  visitorId: string;
  /** Undefined when the assistant was deleted while the turn waited. */
  assistant: AssistantRecord | undefined;
  /** The number of the conversation's last message (0 for none). */
  lastSeq: number;
  /** Whether the turn's current step has issued its calls (its model step ran). */
  stepHasCalls: boolean;
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

    /**
     * What a run of the turn starts from, in one read: the turn, its conversation's visitor, its
     * assistant (undefined once deleted), the conversation's last message number (a history kept
     * in memory that reached it reads nothing) and whether the turn's step has issued calls yet.
     */
    async getForRun(id: string): Promise<TurnRun | undefined> {
      const row = await db
        .selectFrom('hub_turns')
        .innerJoin('hub_conversations', 'hub_conversations.id', 'hub_turns.conversation_id')
        .leftJoin('hub_assistants', 'hub_assistants.id', 'hub_conversations.assistant_id')
        .selectAll('hub_turns')
        .select((eb) => [
          'hub_conversations.assistant_id as assistant_id',
          'hub_conversations.visitor_id as visitor_id',
          'hub_assistants.account_id as assistant_account_id',
          'hub_assistants.name as assistant_name',
          'hub_assistants.publishable_key as assistant_publishable_key',
          'hub_assistants.config_json as assistant_config_json',
          'hub_assistants.secrets_enc as assistant_secrets_enc',
          'hub_assistants.created_at as assistant_created_at',
          'hub_assistants.updated_at as assistant_updated_at',
          eb
            .selectFrom('hub_messages')
            .select((sub) => sub.fn.max('hub_messages.seq').as('seq'))
            .whereRef('hub_messages.conversation_id', '=', 'hub_turns.conversation_id')
            .as('last_seq'),
          eb
            .exists(
              eb
                .selectFrom('hub_tool_calls')
                .select('hub_tool_calls.id')
                .whereRef('hub_tool_calls.turn_id', '=', 'hub_turns.id')
                .whereRef('hub_tool_calls.step', '=', 'hub_turns.step'),
            )
            .as('step_has_calls'),
        ])
        .where('hub_turns.id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      const assistant =
        row.assistant_config_json === null
          ? undefined
          : assistantRecordOf({
              id: row.assistant_id,
              account_id: row.assistant_account_id as string,
              name: row.assistant_name as string,
              publishable_key: row.assistant_publishable_key as string,
              config_json: row.assistant_config_json,
              secrets_enc: row.assistant_secrets_enc,
              created_at: row.assistant_created_at as number,
              updated_at: row.assistant_updated_at as number,
            });
      return {
        turn: toRecord(row),
        visitorId: row.visitor_id,
        assistant,
        lastSeq: Number(row.last_seq ?? 0),
        // SQLite answers 0 or 1, PostgreSQL a boolean.
        stepHasCalls: Boolean(row.step_has_calls),
      };
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
