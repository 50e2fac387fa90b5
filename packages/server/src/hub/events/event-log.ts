import type { HubEvent, HubEventBody } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../store/schema.js';
import { isUniqueViolation } from '../../store/store-errors.js';
import type { HubSignals } from '../cluster/hub-signal.js';
import type { EventBus } from './event-bus.js';

const APPEND_ATTEMPTS = 8;

/**
 * The conversation's append-only event log; this module owns `hub_events`. Ids increase by one per
 * conversation, assigned by the insert itself (`max(id) + 1`), so two appenders — even on two
 * instances — never share an id: the loser of a race hits the primary key and tries again. Each
 * append wakes this process's streams (the bus, with the event) and the other instances' (a signal).
 *
 * Inside a transaction (`announce` given) an append neither retries nor wakes anyone: a lost race
 * aborts the transaction on PostgreSQL, so the whole transaction is what tries again
 * (hub-context.ts), and streams hear of the event only once it is committed.
 */
export function createEventLog(
  db: Kysely<Database>,
  clock: Clock,
  bus: EventBus,
  signals?: HubSignals,
  announce?: (wake: () => void) => void,
) {
  function toEvent(row: { id: number; data_json: string; created_at: number }): HubEvent {
    const body = JSON.parse(row.data_json) as HubEventBody;
    return { ...body, id: Number(row.id), at: new Date(Number(row.created_at)).toISOString() } as HubEvent;
  }

  /**
   * Appends `bodies` in order with one statement: each row numbered `max(id) + k` by the insert
   * itself, the maximum read once for all of them (the statement's own snapshot).
   */
  async function appendAll(conversationId: string, bodies: readonly HubEventBody[]): Promise<HubEvent[]> {
    if (bodies.length === 0) return [];
    const data = bodies.map((body) => JSON.stringify(body));
    const now = clock.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const rows = await db
          .insertInto('hub_events')
          .columns(['conversation_id', 'id', 'type', 'data_json', 'created_at'])
          .expression((eb) => {
            const row = (index: number) =>
              eb
                .selectFrom('hub_events')
                .where('conversation_id', '=', conversationId)
                .select([
                  eb.val(conversationId).as('conversation_id'),
                  eb(eb.fn.coalesce(eb.fn.max('id'), eb.lit(0)), '+', eb.lit(index + 1)).as('id'),
                  eb.val(bodies[index]!.type).as('type'),
                  eb.val(data[index]!).as('data_json'),
                  // Typed: PostgreSQL gives a parameter of a union's select list the type text.
                  eb.cast<number>(eb.val(now), 'bigint').as('created_at'),
                ]);
            let query = row(0);
            for (let index = 1; index < bodies.length; index++) query = query.unionAll(row(index));
            return query;
          })
          .returning(['id'])
          .execute();
        const ids = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
        const events = ids.map((id, index) => toEvent({ id, data_json: data[index]!, created_at: now }));
        const wake = () => {
          for (const event of events) bus.publish(conversationId, event);
          signals?.send({ kind: 'events', conversationId });
        };
        if (announce) announce(wake);
        else wake();
        return events;
      } catch (error) {
        if (announce || !isUniqueViolation(error) || attempt >= APPEND_ATTEMPTS) throw error;
      }
    }
  }

  return {
    async append(conversationId: string, body: HubEventBody): Promise<HubEvent> {
      const [event] = await appendAll(conversationId, [body]);
      return event!;
    },

    appendAll,

    /** Events after `afterId`, oldest first, at most `limit`. */
    async after(conversationId: string, afterId: number, limit = 500): Promise<HubEvent[]> {
      const rows = await db
        .selectFrom('hub_events')
        .select(['id', 'data_json', 'created_at'])
        .where('conversation_id', '=', conversationId)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(toEvent);
    },

    /** The newest event id of each of these conversations that has any event. */
    async newestOf(conversationIds: readonly string[]): Promise<Map<string, number>> {
      if (conversationIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('hub_events')
        .select((eb) => ['conversation_id', eb.fn.max('id').as('newest')])
        .where('conversation_id', 'in', conversationIds)
        .groupBy('conversation_id')
        .execute();
      return new Map(rows.map((row) => [row.conversation_id, Number(row.newest)]));
    },

    async lastId(conversationId: string): Promise<number> {
      const row = await db
        .selectFrom('hub_events')
        .select((eb) => eb.fn.max('id').as('last'))
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst();
      return Number(row?.last ?? 0);
    },
  };
}

export type EventLog = ReturnType<typeof createEventLog>;
