import { randomUUID } from 'node:crypto';
import { DioscError } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { HubFilesTable } from '../../store/files-schema.js';
import type { Database } from '../../store/schema.js';

/** Bytes per `hub_file_chunks` row: small enough to stream, large enough to keep row counts low. */
export const CHUNK_BYTES = 256 * 1024;

export type NewFile = Pick<
  HubFilesTable,
  | 'assistant_id'
  | 'conversation_id'
  | 'visitor_id'
  | 'source'
  | 'interrupt_id'
  | 'tool_call_id'
  | 'filename'
  | 'original_name'
  | 'media_type'
  | 'format'
  | 'expires_at'
>;

/** The caps a completed file must fit, in bytes already stored plus this one. */
export interface FileQuotas {
  maxConversationBytes: number;
  maxVisitorBytes: number;
  maxAssistantBytes: number;
}

/**
 * File metadata and chunks; this module owns `hub_files` and `hub_file_chunks`. A file is
 * `writing` while its chunks stream in and becomes `complete` in one statement once all are
 * stored, so a crash mid-upload leaves only an invisible row the pruner removes.
 */
export function createFileStore(db: Kysely<Database>, clock: Clock) {
  const usedBytes = async (
    trx: Kysely<Database>,
    column: 'conversation_id' | 'visitor_id' | 'assistant_id',
    value: string,
    assistantId: string,
  ) => {
    const row = await trx
      .selectFrom('hub_files')
      .select((eb) => eb.fn.sum<number | string | null>('size_bytes').as('bytes'))
      .where(column, '=', value)
      .where('assistant_id', '=', assistantId)
      .where('status', '=', 'complete')
      .executeTakeFirstOrThrow();
    return Number(row.bytes ?? 0);
  };

  return {
    async begin(file: NewFile): Promise<string> {
      const id = `fil_${randomUUID()}`;
      await db
        .insertInto('hub_files')
        .values({
          ...file,
          id,
          size_bytes: 0,
          sha256: '',
          chunk_count: 0,
          status: 'writing',
          created_at: clock.now(),
        })
        .execute();
      return id;
    },

    async writeChunk(fileId: string, seq: number, data: Uint8Array): Promise<void> {
      await db.insertInto('hub_file_chunks').values({ file_id: fileId, seq, data }).execute();
    },

    /**
     * Makes the file visible, if it fits every quota. The assistant's row is locked first (a no-op
     * update) so two completions on PostgreSQL cannot both count the same usage; SQLite already
     * runs one write transaction at a time.
     */
    async complete(
      fileId: string,
      done: { sizeBytes: number; sha256: string; chunkCount: number },
      quotas: FileQuotas,
    ): Promise<HubFilesTable> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('hub_files')
          .selectAll()
          .where('id', '=', fileId)
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('hub_assistants')
          .set((eb) => ({ name: eb.ref('name') }))
          .where('id', '=', row.assistant_id)
          .execute();
        const checks = [
          ['conversation', 'conversation_id', row.conversation_id, quotas.maxConversationBytes],
          ['visitor', 'visitor_id', row.visitor_id, quotas.maxVisitorBytes],
          ['assistant', 'assistant_id', row.assistant_id, quotas.maxAssistantBytes],
        ] as const;
        for (const [scope, column, value, cap] of checks) {
          const used = await usedBytes(trx, column, value, row.assistant_id);
          if (used + done.sizeBytes > cap) throw quotaError(scope, cap, used);
        }
        const completed = {
          size_bytes: done.sizeBytes,
          sha256: done.sha256,
          chunk_count: done.chunkCount,
          status: 'complete' as const,
        };
        await trx.updateTable('hub_files').set(completed).where('id', '=', fileId).execute();
        return { ...row, ...completed };
      });
    },

    /**
     * Removes a refused or failed write. One statement: its chunks go with the row (ON DELETE
     * CASCADE), so even a failing chunk table cannot leave the row behind.
     */
    async discard(fileId: string): Promise<void> {
      await db.deleteFrom('hub_files').where('id', '=', fileId).execute();
    },

    /** Removes every file of a conversation (its chunks cascade with each row); answers how many. */
    async removeConversation(conversationId: string): Promise<number> {
      const result = await db
        .deleteFrom('hub_files')
        .where('conversation_id', '=', conversationId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async find(fileId: string): Promise<HubFilesTable | undefined> {
      if (!/^fil_[0-9a-f-]{36}$/.test(fileId)) return undefined;
      return db.selectFrom('hub_files').selectAll().where('id', '=', fileId).executeTakeFirst();
    },

    async ofToolCall(toolCallId: string): Promise<HubFilesTable | undefined> {
      return db
        .selectFrom('hub_files')
        .selectAll()
        .where('tool_call_id', '=', toolCallId)
        .where('status', '=', 'complete')
        .executeTakeFirst();
    },

    /** Bytes already stored in each scope, for stopping an upload while it streams. */
    async usage(file: Pick<NewFile, 'assistant_id' | 'conversation_id' | 'visitor_id'>) {
      return {
        conversation: await usedBytes(db, 'conversation_id', file.conversation_id, file.assistant_id),
        visitor: await usedBytes(db, 'visitor_id', file.visitor_id, file.assistant_id),
        assistant: await usedBytes(db, 'assistant_id', file.assistant_id, file.assistant_id),
      };
    },

    /** The chunks covering bytes `start`..`end` (inclusive), one row at a time. */
    async *read(row: HubFilesTable, start: number, end: number): AsyncGenerator<Buffer> {
      for (let seq = Math.floor(start / CHUNK_BYTES); seq <= Math.floor(end / CHUNK_BYTES); seq++) {
        const chunk = await db
          .selectFrom('hub_file_chunks')
          .select('data')
          .where('file_id', '=', row.id)
          .where('seq', '=', seq)
          .executeTakeFirst();
        if (!chunk) throw new DioscError('file_expired', 'The file is no longer stored.');
        const data = Buffer.from(chunk.data.buffer, chunk.data.byteOffset, chunk.data.byteLength);
        const offset = seq * CHUNK_BYTES;
        yield data.subarray(Math.max(0, start - offset), Math.min(data.length, end - offset + 1));
      }
    },
  };
}

export type FileStore = ReturnType<typeof createFileStore>;

function quotaError(scope: string, cap: number, used: number): DioscError {
  return new DioscError(
    'file_quota_exceeded',
    `The ${scope} may store at most ${cap} bytes of files; ${used} are in use.`,
    { details: { scope, capBytes: cap, usedBytes: used } },
  );
}
