import { createHash } from 'node:crypto';
import { DioscError } from '@diosc/protocol';
import type { Clock } from '../../clock.js';
import type { HubFilesTable } from '../../store/files-schema.js';
import type { FilesPermission } from '../assistants/assistant-config.js';
import type { HubHold } from '../hub-hold.js';
import { isTextType } from './file-formats.js';
import { CHUNK_BYTES, type FileStore } from './file-store.js';
import { originalName, safeFilename } from './safe-filename.js';
import { decideStoredType, type StoredType, textChecker } from './stored-type.js';

export interface WriteFileInput {
  /** The file's bytes as they arrive (a multipart stream, or one buffer from `generate_file`). */
  bytes: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  owner: { assistantId: string; conversationId: string; visitorId: string };
  source: HubFilesTable['source'];
  interruptId?: string | null;
  toolCallId?: string | null;
  /** The name as the page or the model gave it; sanitized before anything is stored. */
  filename: string;
  declaredType?: string | undefined;
  /** A type fixed by the caller (`generate_file`'s format) instead of one decided from the bytes. */
  storedType?: StoredType;
  /** Stored types accepted; undefined accepts any (a generated file's type is its format's). */
  allowedTypes?: string[];
  maxFileBytes: number;
  permission: FilesPermission;
}

/**
 * Streams a file into the store: refused as soon as it passes the per-file cap or the room left in
 * its quotas (never buffered beyond one chunk), its type decided from the first chunk before
 * anything is written, text checked as UTF-8 chunk by chunk. Any refusal or failure removes what
 * was written; the file becomes visible only when `complete` commits.
 */
export async function writeFile(
  store: FileStore,
  clock: Clock,
  input: WriteFileInput,
  hold?: HubHold,
): Promise<HubFilesTable> {
  const { owner, permission } = input;
  const scope = {
    assistant_id: owner.assistantId,
    conversation_id: owner.conversationId,
    visitor_id: owner.visitorId,
  };
  const used = await store.usage(scope);
  const room = Math.min(
    permission.maxConversationBytes - used.conversation,
    permission.maxVisitorBytes - used.visitor,
    permission.maxAssistantBytes - used.assistant,
  );
  const limit = Math.min(input.maxFileBytes, room);
  const hash = createHash('sha256');
  let fileId: string | undefined;
  let text: ReturnType<typeof textChecker> | undefined;
  let seq = 0;

  const emit = async (data: Uint8Array) => {
    if (seq === 0) {
      const type =
        input.storedType ??
        (await decideStoredType({ head: data, declared: input.declaredType, filename: input.filename }));
      if (input.allowedTypes && !input.allowedTypes.includes(type.mediaType))
        throw new DioscError(
          'file_type_not_allowed',
          `Files of type ${type.mediaType} are not accepted here.`,
        );
      if (isTextType(type.mediaType)) text = textChecker();
      fileId = await store.begin({
        ...scope,
        source: input.source,
        interrupt_id: input.interruptId ?? null,
        tool_call_id: input.toolCallId ?? null,
        filename: safeFilename(input.filename, type.extensions),
        original_name: originalName(input.filename),
        media_type: type.mediaType,
        format: type.format,
        expires_at: clock.now() + permission.retentionMs,
      });
    }
    text?.push(data);
    await store.writeChunk(fileId!, seq, data);
    await hold?.({ at: 'file.chunk', fileId: fileId!, seq });
    seq++;
  };

  try {
    let chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let filled = 0;
    let total = 0;
    for await (const piece of readSource(input.bytes)) {
      total += piece.length;
      if (total > limit) throw overLimit(total, input.maxFileBytes, room);
      hash.update(piece);
      for (let offset = 0; offset < piece.length; ) {
        const take = Math.min(CHUNK_BYTES - filled, piece.length - offset);
        chunk.set(piece.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === CHUNK_BYTES) {
          await emit(chunk);
          chunk = Buffer.allocUnsafe(CHUNK_BYTES);
          filled = 0;
        }
      }
    }
    if (total === 0) throw new DioscError('invalid_input', 'The file is empty.');
    if (filled > 0) await emit(chunk.subarray(0, filled));
    text?.end();
    return await store.complete(
      fileId!,
      { sizeBytes: total, sha256: hash.digest('hex'), chunkCount: seq },
      permission,
    );
  } catch (error) {
    if (fileId) await store.discard(fileId).catch(() => {});
    if (DioscError.isInstance(error)) throw error;
    throw new DioscError('file_storage_failed', undefined, { cause: error });
  }
}

function overLimit(total: number, maxFileBytes: number, room: number): DioscError {
  if (total > maxFileBytes)
    return new DioscError('file_too_large', `The file is over the ${maxFileBytes}-byte cap for one file.`, {
      details: { capBytes: maxFileBytes },
    });
  return new DioscError('file_quota_exceeded', `Only ${Math.max(0, room)} bytes of file storage are left.`, {
    details: { roomBytes: Math.max(0, room) },
  });
}

/** The source's errors are the sender's (a cut-off or malformed upload), not the store's. */
async function* readSource(bytes: WriteFileInput['bytes']): AsyncGenerator<Uint8Array> {
  const iterator =
    Symbol.asyncIterator in bytes
      ? bytes[Symbol.asyncIterator]()
      : (bytes as Iterable<Uint8Array>)[Symbol.iterator]();
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await iterator.next();
      } catch (error) {
        // A refusal of the source's own (a part after the file) is already the sender's answer.
        if (DioscError.isInstance(error)) throw error;
        throw new DioscError('invalid_input', 'The upload was cut off or is not valid multipart data.', {
          cause: error,
        });
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.();
  }
}
