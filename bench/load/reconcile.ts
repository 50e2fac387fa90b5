// After the load: what every client was told, checked against the store. Each claim of the ledger
// must hold there — an acknowledged write has its committed receipt and its item, an accepted
// interrupt answer was the one answer of a call that is done, every acknowledged turn finished
// with one start and one end, every stream saw exactly the log, every upload is complete.

import type { Database } from '@diosc/server/testing';
import type { Kysely } from 'kysely';
import type { Ledger } from './ledger.js';
import { COLLECTION } from './load-app.js';

export interface Reconciliation {
  problems: string[];
  checked: { writes: number; interrupts: number; turns: number; events: number; files: number };
}

const SHOWN = 20;

export async function reconcile(db: Kysely<Database>, ledger: Ledger): Promise<Reconciliation> {
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length < SHOWN) problems.push(text);
    else if (problems.length === SHOWN) problems.push('… and more');
  };

  // Acknowledged writes: one committed receipt each, and the item.
  const receipts = new Map(
    (await db.selectFrom('receipts').select(['actor', 'request_id', 'status']).execute()).map((row) => [
      `${row.actor} ${row.request_id}`,
      row.status,
    ]),
  );
  const items = new Set(
    (await db.selectFrom('items').select('id').where('collection_id', '=', COLLECTION).execute()).map(
      (row) => row.id,
    ),
  );
  const acked = new Set<string>();
  for (const write of ledger.writes) {
    const key = `${write.actor} ${write.requestId}`;
    if (acked.has(key)) problem(`${write.via} write ${write.requestId} was acknowledged twice`);
    acked.add(key);
    const status = receipts.get(key);
    if (status !== 'committed')
      problem(`${write.via} write ${write.requestId}: receipt ${status ?? 'missing'}`);
    if (!items.has(write.item)) problem(`${write.via} write ${write.requestId}: item ${write.item} missing`);
  }

  // Interrupts: each accepted once, done in the store with its answer, resolved once in the log.
  const events = await db
    .selectFrom('hub_events')
    .select(['conversation_id', 'id', 'type', 'data_json'])
    .execute();
  const resolvedCount = new Map<string, number>();
  const turnEvents = new Map<string, { started: number; done: number }>();
  for (const event of events) {
    const data = JSON.parse(event.data_json) as { interruptId?: string; turnId?: string };
    if (event.type === 'interrupt.resolved' && data.interruptId)
      resolvedCount.set(data.interruptId, (resolvedCount.get(data.interruptId) ?? 0) + 1);
    if (data.turnId && (event.type === 'turn.started' || event.type === 'turn.done')) {
      const counts = turnEvents.get(data.turnId) ?? { started: 0, done: 0 };
      if (event.type === 'turn.started') counts.started++;
      else counts.done++;
      turnEvents.set(data.turnId, counts);
    }
  }
  const calls = new Map(
    (
      await db
        .selectFrom('hub_tool_calls')
        .select(['id', 'turn_id', 'status', 'answer_digest'])
        .where('kind', '=', 'browser')
        .execute()
    ).map((row) => [row.id, row]),
  );
  const answeredOnce = new Set<string>();
  for (const id of ledger.answered) {
    if (answeredOnce.has(id)) problem(`interrupt ${id} was accepted twice`);
    answeredOnce.add(id);
    const call = calls.get(id);
    if (!call) problem(`interrupt ${id} is not in the store`);
    else if (call.status !== 'done' || !call.answer_digest)
      problem(`interrupt ${id}: ${call.status}, no answer`);
    if ((resolvedCount.get(id) ?? 0) !== 1)
      problem(`interrupt ${id} resolved ${resolvedCount.get(id) ?? 0} times in the log`);
  }

  // Turns: done in the store, one start and one end in the log; none of them left a call waiting.
  const turns = new Map(
    (await db.selectFrom('hub_turns').select(['id', 'status']).execute()).map((row) => [row.id, row.status]),
  );
  const turnSet = new Set(ledger.turns);
  for (const id of ledger.turns) {
    if (turns.get(id) !== 'done') problem(`turn ${id}: ${turns.get(id) ?? 'missing'} in the store`);
    const counts = turnEvents.get(id);
    if (counts?.started !== 1 || counts.done !== 1)
      problem(
        `turn ${id}: ${counts?.started ?? 0} turn.started and ${counts?.done ?? 0} turn.done in the log`,
      );
  }
  for (const call of calls.values()) {
    if (turnSet.has(call.turn_id) && call.status !== 'done')
      problem(`call ${call.id} of a finished turn: ${call.status}`);
  }

  // Streams: each client received exactly the conversation's log, ids 1..n with no gap or repeat.
  const logIds = new Map<string, number[]>();
  for (const event of events) {
    const ids = logIds.get(event.conversation_id) ?? [];
    ids.push(Number(event.id));
    logIds.set(event.conversation_id, ids);
  }
  let streamed = 0;
  for (const [conversation, received] of Object.entries(ledger.streams)) {
    const log = (logIds.get(conversation) ?? []).sort((a, b) => a - b);
    streamed += received.length;
    if (log.some((id, index) => id !== index + 1)) problem(`conversation ${conversation}: the log has gaps`);
    if (received.length !== log.length || received.some((id, index) => id !== log[index]))
      problem(
        `conversation ${conversation}: the stream got ${received.length} events, the log has ${log.length}`,
      );
  }

  // Uploads: complete, at the size acknowledged, every byte in the chunks.
  for (const file of ledger.files) {
    const row = await db
      .selectFrom('hub_files')
      .select(['status', 'size_bytes'])
      .where('id', '=', file.fileId)
      .executeTakeFirst();
    if (row?.status !== 'complete' || Number(row.size_bytes) !== file.sizeBytes) {
      problem(`file ${file.fileId}: ${row ? `${row.status}, ${row.size_bytes} bytes` : 'missing'}`);
      continue;
    }
    const chunks = await db
      .selectFrom('hub_file_chunks')
      .select('data')
      .where('file_id', '=', file.fileId)
      .execute();
    const bytes = chunks.reduce((sum, chunk) => sum + (chunk.data as Uint8Array).length, 0);
    if (bytes !== file.sizeBytes) problem(`file ${file.fileId}: ${bytes} bytes stored of ${file.sizeBytes}`);
  }

  return {
    problems,
    checked: {
      writes: ledger.writes.length,
      interrupts: ledger.answered.length,
      turns: ledger.turns.length,
      events: streamed,
      files: ledger.files.length,
    },
  };
}
