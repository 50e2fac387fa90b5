import { type AssistantUsageView, isErrorCode } from '@diosc/protocol';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../store/schema.js';

const DAY_MS = 86_400_000;
const dayOf = sql<number | string>`created_at / ${sql.lit(DAY_MS)}`;

/**
 * An assistant's usage per UTC day: turns and tool calls (from the conversations that still exist),
 * model tokens (recorded per step, kept when a conversation is deleted), and the error codes of
 * failed turns and failed tool calls. Every day of the period is present, oldest first.
 */
export async function assistantUsage(
  db: Kysely<Database>,
  assistantId: string,
  days: number,
  now: number,
): Promise<AssistantUsageView> {
  const lastDay = Math.floor(now / DAY_MS);
  const firstDay = lastDay - days + 1;
  const from = firstDay * DAY_MS;

  const turns = await db
    .selectFrom('hub_turns')
    .innerJoin('hub_conversations', 'hub_conversations.id', 'hub_turns.conversation_id')
    .select([
      sql<number | string>`hub_turns.created_at / ${sql.lit(DAY_MS)}`.as('day'),
      (eb) => eb.fn.countAll<number | string>().as('count'),
    ])
    .where('hub_conversations.assistant_id', '=', assistantId)
    .where('hub_turns.created_at', '>=', from)
    .groupBy(sql`hub_turns.created_at / ${sql.lit(DAY_MS)}`)
    .execute();
  const calls = await db
    .selectFrom('hub_tool_calls')
    .innerJoin('hub_turns', 'hub_turns.id', 'hub_tool_calls.turn_id')
    .innerJoin('hub_conversations', 'hub_conversations.id', 'hub_turns.conversation_id')
    .select([
      sql<number | string>`hub_tool_calls.created_at / ${sql.lit(DAY_MS)}`.as('day'),
      (eb) => eb.fn.countAll<number | string>().as('count'),
    ])
    .where('hub_conversations.assistant_id', '=', assistantId)
    .where('hub_tool_calls.created_at', '>=', from)
    .groupBy(sql`hub_tool_calls.created_at / ${sql.lit(DAY_MS)}`)
    .execute();
  const tokens = await db
    .selectFrom('hub_model_usage')
    .select([
      dayOf.as('day'),
      (eb) => eb.fn.sum<number | string>('input_tokens').as('input'),
      (eb) => eb.fn.sum<number | string>('output_tokens').as('output'),
    ])
    .where('assistant_id', '=', assistantId)
    .where('created_at', '>=', from)
    .groupBy(dayOf)
    .execute();

  const errors = new Map<string, number>();
  const failedTurns = await db
    .selectFrom('hub_turns')
    .innerJoin('hub_conversations', 'hub_conversations.id', 'hub_turns.conversation_id')
    .select('hub_turns.error_json')
    .where('hub_conversations.assistant_id', '=', assistantId)
    .where('hub_turns.created_at', '>=', from)
    .where('hub_turns.status', '=', 'failed')
    .execute();
  for (const turn of failedTurns) {
    const code = turn.error_json ? (JSON.parse(turn.error_json) as { code?: unknown }).code : undefined;
    count(errors, typeof code === 'string' ? code : 'internal');
  }
  const failedCalls = await db
    .selectFrom('hub_tool_calls')
    .innerJoin('hub_turns', 'hub_turns.id', 'hub_tool_calls.turn_id')
    .innerJoin('hub_conversations', 'hub_conversations.id', 'hub_turns.conversation_id')
    .select('hub_tool_calls.output_json')
    .where('hub_conversations.assistant_id', '=', assistantId)
    .where('hub_tool_calls.created_at', '>=', from)
    .where('hub_tool_calls.output_json', 'like', '{"type":"error-text"%')
    .execute();
  for (const call of failedCalls) {
    const value = (JSON.parse(call.output_json!) as { value?: unknown }).value;
    // The hub writes its own failures as `code: message`; a page's own error text has no code.
    const code = typeof value === 'string' ? /^([a-z_]+):/.exec(value)?.[1] : undefined;
    count(errors, code && isErrorCode(code) ? code : 'tool_failed');
  }

  const perDay = (rows: { day: number | string }[], day: number) =>
    rows.find((row) => Number(row.day) === day);
  return {
    from: new Date(from).toISOString().slice(0, 10),
    to: new Date(lastDay * DAY_MS).toISOString().slice(0, 10),
    days: Array.from({ length: days }, (_, index) => {
      const day = firstDay + index;
      const used = perDay(tokens, day) as { input?: number | string; output?: number | string } | undefined;
      return {
        day: new Date(day * DAY_MS).toISOString().slice(0, 10),
        turns: Number((perDay(turns, day) as { count?: number | string } | undefined)?.count ?? 0),
        toolCalls: Number((perDay(calls, day) as { count?: number | string } | undefined)?.count ?? 0),
        inputTokens: Number(used?.input ?? 0),
        outputTokens: Number(used?.output ?? 0),
      };
    }),
    errors: [...errors]
      .map(([code, total]) => ({ code, count: total }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
  };
}

function count(map: Map<string, number>, code: string): void {
  map.set(code, (map.get(code) ?? 0) + 1);
}
