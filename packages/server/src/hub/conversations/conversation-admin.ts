import {
  type ConversationPage,
  type ConversationRowView,
  type ConversationStatus,
  DioscError,
  type FileDescriptor,
  type IntentDecisionReport,
  type TranscriptToolCall,
  type TranscriptView,
} from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Database, HubConversationsTable, HubToolCallsTable } from '../../store/schema.js';
import { descriptorOf } from '../files/file-descriptor.js';
import type { Conversations } from '../store/conversations.js';
import type { ToolOutput } from '../store/tool-calls.js';
import { displayMessages } from './display.js';

const RESULT_TEXT_MAX = 4_000;
const ISO = (ms: number | string) => new Date(Number(ms)).toISOString();

/**
 * The owner's read model of an assistant's conversations: the list with its counts, and the
 * transcript as structured data. It only reads; the hub's own modules own and write these tables.
 */
export function createConversationAdmin(db: Kysely<Database>, conversations: Conversations) {
  async function rowsOf(list: HubConversationsTable[]): Promise<ConversationRowView[]> {
    const ids = list.map((row) => row.id);
    if (ids.length === 0) return [];
    const turns = await db
      .selectFrom('hub_turns')
      .select(['id', 'conversation_id', 'status', 'created_at'])
      .where('conversation_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const calls = await db
      .selectFrom('hub_tool_calls')
      .innerJoin('hub_turns', 'hub_turns.id', 'hub_tool_calls.turn_id')
      .select(['hub_turns.conversation_id as conversationId', 'hub_tool_calls.tool as tool'])
      .where('hub_turns.conversation_id', 'in', ids)
      .orderBy('hub_tool_calls.created_at')
      .orderBy('hub_tool_calls.step')
      .orderBy('hub_tool_calls.position')
      .execute();
    const files = await db
      .selectFrom('hub_files')
      .select(['conversation_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('conversation_id', 'in', ids)
      .where('status', '!=', 'writing')
      .groupBy('conversation_id')
      .execute();
    return list.map((row) => {
      const own = turns.filter((turn) => turn.conversation_id === row.id);
      const tools = calls.filter((call) => call.conversationId === row.id).map((call) => call.tool);
      const status: ConversationStatus = own.at(-1)?.status ?? 'idle';
      return {
        id: row.id,
        title: row.title,
        visitorId: row.visitor_id,
        createdAt: ISO(row.created_at),
        updatedAt: ISO(row.updated_at),
        turns: own.length,
        status,
        toolCalls: tools.length,
        toolsCalled: [...new Set(tools)],
        files: Number(files.find((entry) => entry.conversation_id === row.id)?.count ?? 0),
      };
    });
  }

  async function requireOfAssistant(assistantId: string, id: string): Promise<HubConversationsTable> {
    const row = await db
      .selectFrom('hub_conversations')
      .selectAll()
      .where('id', '=', id)
      .where('assistant_id', '=', assistantId)
      .executeTakeFirst();
    if (!row) throw new DioscError('not_found', 'There is no such conversation.');
    return row;
  }

  return {
    requireOfAssistant,

    /** Newest first (by last activity), `limit` at a time; the cursor is this server's own. */
    async list(assistantId: string, limit: number, cursor?: string): Promise<ConversationPage> {
      let query = db
        .selectFrom('hub_conversations')
        .selectAll()
        .where('assistant_id', '=', assistantId)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1);
      if (cursor !== undefined) {
        const after = readCursor(cursor);
        query = query.where((eb) =>
          eb.or([
            eb('updated_at', '<', after.updatedAt),
            eb.and([eb('updated_at', '=', after.updatedAt), eb('id', '<', after.id)]),
          ]),
        );
      }
      const rows = await query.execute();
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        conversations: await rowsOf(page),
        nextCursor: rows.length > limit && last ? writeCursor(Number(last.updated_at), last.id) : null,
      };
    },

    async transcript(assistantId: string, id: string): Promise<TranscriptView> {
      const row = await requireOfAssistant(assistantId, id);
      const [summary] = await rowsOf([row]);
      const stored = await conversations.messages(id);
      const turnRows = await db
        .selectFrom('hub_turns')
        .selectAll()
        .where('conversation_id', '=', id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const turnIds = turnRows.map((turn) => turn.id);
      const calls =
        turnIds.length === 0
          ? []
          : await db
              .selectFrom('hub_tool_calls')
              .selectAll()
              .where('turn_id', 'in', turnIds)
              .orderBy('step')
              .orderBy('position')
              .execute();
      const locations = new Map(
        calls.map((call) => [
          call.model_call_id,
          call.kind === 'server' || call.kind === 'refused' ? ('server' as const) : ('browser' as const),
        ]),
      );
      const fileRows = await db
        .selectFrom('hub_files')
        .selectAll()
        .where('conversation_id', '=', id)
        .where('status', '!=', 'writing')
        .execute();
      const proposed = await proposedArgsOf(db, id);

      const turnOfMessage = new Map(stored.map((message) => [message.id, message.turnId]));
      const messages = displayMessages(stored, locations).map((message) => ({
        ...message,
        turnId: turnOfMessage.get(message.id) ?? null,
      }));
      return {
        conversation: summary!,
        messages,
        turns: turnRows.map((turn) => ({
          id: turn.id,
          status: turn.status,
          error: turn.error_json ? (JSON.parse(turn.error_json) as { code: string; message: string }) : null,
          createdAt: ISO(turn.created_at),
          updatedAt: ISO(turn.updated_at),
          toolCalls: calls
            .filter((call) => call.turn_id === turn.id)
            .map((call) =>
              toolCallView(
                call,
                fileRows.filter((file) => fileOfCall(file, call.id)),
                proposed,
              ),
            ),
        })),
      };
    },
  };
}

function fileOfCall(file: { tool_call_id: string | null; interrupt_id: string | null }, callId: string) {
  return file.tool_call_id === callId || file.interrupt_id === callId;
}

/** What the model proposed for each approval request, from the event log (an Edit replaces the args). */
async function proposedArgsOf(db: Kysely<Database>, conversationId: string) {
  const events = await db
    .selectFrom('hub_events')
    .select('data_json')
    .where('conversation_id', '=', conversationId)
    .where('type', '=', 'consensus.requested')
    .execute();
  const byId = new Map<string, Record<string, unknown>>();
  for (const event of events) {
    const data = JSON.parse(event.data_json) as { request?: { id?: string; args?: Record<string, unknown> } };
    if (data.request?.id && data.request.args) byId.set(data.request.id, data.request.args);
  }
  return byId;
}

/** The end state a closed-without-answer call's output names (`code: message`). */
function closedAs(output: ToolOutput | null): 'timed_out' | 'cancelled' | undefined {
  if (output?.type !== 'error-text') return undefined;
  if (output.value.startsWith('interrupt_timed_out:')) return 'timed_out';
  if (output.value.startsWith('cancelled:')) return 'cancelled';
  return undefined;
}

function resultOf(output: ToolOutput | null): TranscriptToolCall['result'] {
  if (!output) return null;
  const text =
    output.type === 'json'
      ? JSON.stringify(output.value ?? null)
      : output.type === 'error-text'
        ? output.value
        : (output.reason ?? 'The call was denied.');
  return {
    ok: output.type === 'json',
    text: text.length > RESULT_TEXT_MAX ? `${text.slice(0, RESULT_TEXT_MAX - 1)}…` : text,
  };
}

function toolCallView(
  call: HubToolCallsTable,
  files: Parameters<typeof descriptorOf>[0][],
  proposed: ReadonlyMap<string, Record<string, unknown>>,
): TranscriptToolCall {
  const output = call.output_json ? (JSON.parse(call.output_json) as ToolOutput) : null;
  const answer = call.answer_json ? (JSON.parse(call.answer_json) as Record<string, unknown>) : null;
  const closed = closedAs(output);
  let interrupt: TranscriptToolCall['interrupt'] = null;
  let consensus: TranscriptToolCall['consensus'] = null;
  if (call.kind === 'browser' || call.kind === 'intent') {
    const decision = answer?.decision as IntentDecisionReport | undefined;
    interrupt = {
      state: call.status === 'interrupt' ? 'pending' : answer ? 'answered' : (closed ?? 'answered'),
      ...(decision ? { decision } : {}),
    };
  } else if (call.kind === 'server' && call.severity) {
    const decision = answer?.decision as 'approve' | 'edit' | 'reject' | undefined;
    consensus = {
      state: call.status === 'consensus' ? 'pending' : decision ? 'decided' : (closed ?? 'decided'),
      ...(decision ? { decision } : {}),
      ...(decision === 'edit' && proposed.has(call.id) ? { proposedArgs: proposed.get(call.id)! } : {}),
      ...(Array.isArray(answer?.changed) ? { changed: answer.changed as string[] } : {}),
      ...(typeof answer?.reason === 'string' ? { reason: answer.reason } : {}),
    };
  }
  const descriptors: FileDescriptor[] = files.map(descriptorOf);
  return {
    id: call.id,
    tool: call.tool,
    kind: call.kind,
    status: call.status,
    severity: (call.severity as TranscriptToolCall['severity']) ?? null,
    args: JSON.parse(call.args_json) as Record<string, unknown>,
    createdAt: ISO(call.created_at),
    resolvedAt: call.resolved_at === null ? null : ISO(call.resolved_at),
    interrupt,
    consensus,
    result: resultOf(output),
    files: descriptors,
  };
}

function writeCursor(updatedAt: number, id: string): string {
  return Buffer.from(`${updatedAt}:${id}`, 'utf8').toString('base64url');
}

function readCursor(cursor: string): { updatedAt: number; id: string } {
  const text = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^(\d{1,16}):(cnv_[0-9a-f-]{36})$/.exec(text);
  if (!match) throw new DioscError('invalid_input', 'The cursor was not issued by this server.');
  return { updatedAt: Number(match[1]), id: match[2]! };
}

export type ConversationAdmin = ReturnType<typeof createConversationAdmin>;
