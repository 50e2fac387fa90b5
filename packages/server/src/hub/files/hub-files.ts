import { DioscError, type FileDescriptor } from '@diosc/protocol';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { NO_TELEMETRY, type Telemetry } from '../../observability/telemetry.js';
import type { HubFilesTable } from '../../store/files-schema.js';
import type { Database } from '../../store/schema.js';
import type { HubHold } from '../hub-hold.js';
import { descriptorOf } from './file-descriptor.js';
import { pruneFiles } from './file-pruner.js';
import { createFileStore } from './file-store.js';
import { type WriteFileInput, writeFile } from './write-file.js';

/**
 * The hub's files, built once per app: the store, the streaming writer, and the checks the routes
 * and the turn runner make before a file reaches a message or the model.
 */
export function createHubFiles(
  db: Kysely<Database>,
  clock: Clock,
  hold?: HubHold,
  telemetry: Pick<Telemetry, 'fileStored'> = NO_TELEMETRY,
) {
  const store = createFileStore(db, clock);
  const live = (row: HubFilesTable | undefined): row is HubFilesTable =>
    row !== undefined && row.status === 'complete' && Number(row.expires_at) > clock.now();

  return {
    store,
    async write(input: WriteFileInput) {
      const row = await writeFile(store, clock, input, hold);
      telemetry.fileStored(input.source);
      return row;
    },
    prune: () => pruneFiles(db, clock),
    removeConversation: (conversationId: string) => store.removeConversation(conversationId),
    /** The complete, unexpired file, for readers that already checked who is asking. */
    async live(fileId: string): Promise<HubFilesTable | undefined> {
      const row = await store.find(fileId);
      return live(row) ? row : undefined;
    },

    /**
     * The descriptors of files the visitor picked and uploaded to this conversation (not a tool's
     * file, which belongs to its interrupt); anything else is refused naming the id.
     */
    async attachments(fileIds: string[], conversationId: string): Promise<FileDescriptor[]> {
      const out: FileDescriptor[] = [];
      for (const fileId of fileIds) {
        const row = await store.find(fileId);
        const ours =
          row?.conversation_id === conversationId && row.source === 'upload' && row.interrupt_id === null;
        if (!ours || row.status === 'writing')
          throw new DioscError(
            'invalid_input',
            `The attachment ${fileId} is not a file uploaded to this conversation.`,
          );
        if (!live(row)) throw new DioscError('file_expired', `The attachment ${fileId} has expired.`);
        out.push(descriptorOf(row));
      }
      return out;
    },

    /**
     * The stored descriptor of a file uploaded for this interrupt of this conversation. The page's
     * copy of the descriptor is never trusted: its name and size are replaced by what was stored.
     */
    async descriptorFor(
      fileId: string,
      conversationId: string,
      interruptId: string,
    ): Promise<FileDescriptor | undefined> {
      const row = await store.find(fileId);
      if (!live(row) || row.conversation_id !== conversationId || row.interrupt_id !== interruptId)
        return undefined;
      return descriptorOf(row);
    },
  };
}

export type HubFiles = ReturnType<typeof createHubFiles>;
