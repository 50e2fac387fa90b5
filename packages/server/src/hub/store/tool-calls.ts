import type { Kysely } from 'kysely';
import type { AuditEntry, AuditRecorder } from '../../audit/audit-recorder.js';
import type { Clock } from '../../clock.js';
import type { Database, HubToolCallsTable } from '../../store/schema.js';

export type ToolCallStatus = HubToolCallsTable['status'];

/** What the model reads back for one tool call (the AI SDK's ToolResultOutput). */
export type ToolOutput =
  | { type: 'json'; value: unknown }
  | { type: 'error-text'; value: string }
  | { type: 'execution-denied'; reason?: string };

export interface ToolCallRecord {
  id: string;
  turnId: string;
  step: number;
  position: number;
  modelCallId: string;
  tool: string;
  kind: HubToolCallsTable['kind'];
  args: Record<string, unknown>;
  status: ToolCallStatus;
  severity: string | null;
  argsDigest: string;
  schema: Record<string, unknown> | null;
  answer: unknown;
  answerDigest: string | null;
  output: ToolOutput | null;
  expiresAt: number | null;
  /** When the model step issued it (the store's clock): where an interrupt's round trip starts. */
  createdAt: number;
}

function toRecord(row: HubToolCallsTable): ToolCallRecord {
  return {
    id: row.id,
    turnId: row.turn_id,
    step: Number(row.step),
    position: Number(row.position),
    modelCallId: row.model_call_id,
    tool: row.tool,
    kind: row.kind,
    args: JSON.parse(row.args_json) as Record<string, unknown>,
    status: row.status,
    severity: row.severity,
    argsDigest: row.args_digest,
    schema: row.schema_json ? (JSON.parse(row.schema_json) as Record<string, unknown>) : null,
    answer: row.answer_json ? JSON.parse(row.answer_json) : null,
    answerDigest: row.answer_digest,
    output: row.output_json ? (JSON.parse(row.output_json) as ToolOutput) : null,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
}

/** The call waits on the page (an interrupt) or on the visitor (an approval request). */
export function isPending(call: Pick<ToolCallRecord, 'status'>): boolean {
  return call.status === 'interrupt' || call.status === 'consensus';
}

/** A call as a model step issues it — what it became — before the store has it. */
export type NewToolCall = Omit<ToolCallRecord, 'answer' | 'answerDigest' | 'createdAt'>;

function toRow(call: NewToolCall, now: number): HubToolCallsTable {
  return {
    id: call.id,
    turn_id: call.turnId,
    step: call.step,
    position: call.position,
    model_call_id: call.modelCallId,
    tool: call.tool,
    kind: call.kind,
    args_json: JSON.stringify(call.args),
    status: call.status,
    severity: call.severity,
    args_digest: call.argsDigest,
    schema_json: call.schema ? JSON.stringify(call.schema) : null,
    answer_json: null,
    answer_digest: null,
    output_json: call.output ? JSON.stringify(call.output) : null,
    expires_at: call.expiresAt,
    created_at: now,
    resolved_at: null,
  };
}

/** What a status change writes beside the status. */
export interface CallFields {
  output?: ToolOutput;
  answer?: unknown;
  answerDigest?: string;
  args?: Record<string, unknown>;
  /** The decision this change is: recorded in the same transaction, and only if it wins. */
  audit?: AuditEntry;
}

/**
 * The tool calls of each model step; this module owns `hub_tool_calls`. An interrupt is a call in
 * status `interrupt`, an approval request one in `consensus`. Each status change is a
 * compare-and-set, so an answer, a timeout and a cancel cannot all win.
 */
export function createToolCalls(db: Kysely<Database>, clock: Clock, audit: AuditRecorder) {
  return {
    /** Stores a step's calls; answers them as stored, so the step need not read them back. */
    async insertStep(calls: NewToolCall[]): Promise<ToolCallRecord[]> {
      if (calls.length === 0) return [];
      const now = clock.now();
      await db
        .insertInto('hub_tool_calls')
        .values(calls.map((call) => toRow(call, now)))
        .execute();
      return calls.map((call) => ({ ...call, answer: null, answerDigest: null, createdAt: now }));
    },

    async forStep(turnId: string, step: number): Promise<ToolCallRecord[]> {
      const rows = await db
        .selectFrom('hub_tool_calls')
        .selectAll()
        .where('turn_id', '=', turnId)
        .where('step', '=', step)
        .orderBy('position')
        .execute();
      return rows.map(toRecord);
    },

    async get(id: string): Promise<ToolCallRecord | undefined> {
      const row = await db.selectFrom('hub_tool_calls').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },

    /**
     * The call with its turn's conversation, if that conversation is this visitor's: one read for
     * the answer and decision routes. Another visitor's call reads exactly like an unknown one.
     */
    async ofVisitor(
      id: string,
      owner: { assistantId: string; visitorId: string },
    ): Promise<{ call: ToolCallRecord; conversationId: string } | undefined> {
      const row = await db
        .selectFrom('hub_tool_calls')
        .innerJoin('hub_turns', 'hub_turns.id', 'hub_tool_calls.turn_id')
        .innerJoin('hub_conversations', 'hub_conversations.id', 'hub_turns.conversation_id')
        .selectAll('hub_tool_calls')
        .select('hub_turns.conversation_id as conversation_id')
        .where('hub_tool_calls.id', '=', id)
        .where('hub_conversations.assistant_id', '=', owner.assistantId)
        .where('hub_conversations.visitor_id', '=', owner.visitorId)
        .executeTakeFirst();
      return row ? { call: toRecord(row), conversationId: row.conversation_id } : undefined;
    },

    /** Whether anything in this step still waits on the page or the visitor. */
    async stepWaits(turnId: string, step: number): Promise<boolean> {
      const row = await db
        .selectFrom('hub_tool_calls')
        .select('id')
        .where('turn_id', '=', turnId)
        .where('step', '=', step)
        .where('status', 'in', ['interrupt', 'consensus'])
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async pendingOfTurn(turnId: string, status: 'interrupt' | 'consensus'): Promise<ToolCallRecord[]> {
      const rows = await db
        .selectFrom('hub_tool_calls')
        .selectAll()
        .where('turn_id', '=', turnId)
        .where('status', '=', status)
        .orderBy('step')
        .orderBy('position')
        .execute();
      return rows.map(toRecord);
    },

    /**
     * Moves a call from `from` to `to` with the given fields: the call as it now is, and how many
     * other calls its step issued (a step's calls are all issued at once, so that number never
     * changes); undefined when another change came first.
     */
    async transition(
      id: string,
      from: ToolCallStatus,
      to: ToolCallStatus,
      fields: CallFields = {},
    ): Promise<{ call: ToolCallRecord; siblings: number } | undefined> {
      const { audit: entry } = fields;
      if (entry && !db.isTransaction) {
        return db
          .transaction()
          .execute((trx) => createToolCalls(trx, clock, audit).transition(id, from, to, fields));
      }
      const row = await db
        .updateTable('hub_tool_calls')
        .set({
          status: to,
          ...(fields.output !== undefined ? { output_json: JSON.stringify(fields.output) } : {}),
          ...(fields.answer !== undefined ? { answer_json: JSON.stringify(fields.answer) } : {}),
          ...(fields.answerDigest !== undefined ? { answer_digest: fields.answerDigest } : {}),
          ...(fields.args !== undefined ? { args_json: JSON.stringify(fields.args) } : {}),
          ...(to === 'done' ? { resolved_at: clock.now() } : {}),
        })
        .where('id', '=', id)
        .where('status', '=', from)
        .returningAll()
        .returning((eb) =>
          eb
            .selectFrom('hub_tool_calls as sibling')
            .select((sub) => sub.fn.countAll<number | string>().as('count'))
            .whereRef('sibling.turn_id', '=', 'hub_tool_calls.turn_id')
            .whereRef('sibling.step', '=', 'hub_tool_calls.step')
            .whereRef('sibling.id', '<>', 'hub_tool_calls.id')
            .as('siblings'),
        )
        .executeTakeFirst();
      if (!row) return undefined;
      if (entry) await audit.record(db, entry);
      return { call: toRecord(row), siblings: Number(row.siblings) };
    },

    /** Where each model tool call of these turns ran (for the transcript), by the model's call id. */
    async locations(turnIds: string[]): Promise<Map<string, 'server' | 'browser'>> {
      if (turnIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('hub_tool_calls')
        .select(['model_call_id', 'kind'])
        .where('turn_id', 'in', turnIds)
        .execute();
      return new Map(
        rows.map((row) => [
          row.model_call_id,
          row.kind === 'server' || row.kind === 'refused' ? 'server' : 'browser',
        ]),
      );
    },

    /** Interrupts and approval requests whose deadline has passed. */
    async overdue(limit = 100): Promise<ToolCallRecord[]> {
      const rows = await db
        .selectFrom('hub_tool_calls')
        .selectAll()
        .where('status', 'in', ['interrupt', 'consensus'])
        .where('expires_at', '<=', clock.now())
        .limit(limit)
        .execute();
      return rows.map(toRecord);
    },
  };
}

export type ToolCalls = ReturnType<typeof createToolCalls>;
