import type { FileDescriptor } from '@diosc/protocol';
import { emissionBlob, isFileEmission } from '../files/file-emission.js';
import { uploadFile } from '../files/upload-file.js';
import type { KitContext } from '../kit-context.js';
import { errorText } from './browser-call.js';

/**
 * Replaces a `file` emission with its byte-free descriptor after uploading it. The bytes never go
 * back with the result: what the model sees is `{ fileId, filename, format, downloadUrl, sizeBytes }`.
 */
export async function deliverEmission(
  kit: KitContext,
  file: unknown,
  interruptId: string | null,
): Promise<{ file: FileDescriptor } | { error: string }> {
  if (!isFileEmission(file)) return { error: 'file must be { content, filename, mimeType? }' };
  const blob = emissionBlob(file);
  if ('error' in blob) return blob;
  const session = kit.session;
  if (!session) return { error: 'The kit is not connected to a hub.' };
  let conversationId: string;
  try {
    conversationId = await session.ensureConversation();
  } catch (error) {
    return { error: errorText(error) };
  }
  const delivered = await uploadFile(session.client, {
    ...blob,
    conversationId,
    ...(interruptId ? { interruptId } : {}),
  });
  return delivered.ok ? { file: delivered.file } : { error: delivered.error };
}
