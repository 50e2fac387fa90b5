import { CodedError, type FileDescriptor } from '@diosc/protocol';
import { decodeRefusal, type HubClient } from '../hub-client/hub-client.js';

export type Delivery = { ok: true; file: FileDescriptor } | { ok: false; error: string };

/**
 * Uploads one file through the visitor's session (`POST /api/hub/files`, multipart) — the one path
 * for files a tool returns and files the visitor attaches, so the same session and the assistant's
 * file permission apply to both. Never throws: every failure is a plain message.
 */
export async function uploadFile(
  client: HubClient,
  upload: { blob: Blob; filename: string; conversationId: string; interruptId?: string },
): Promise<Delivery> {
  try {
    const { assistant } = await client.session();
    if (!assistant.files.enabled) return { ok: false, error: 'This assistant does not accept files.' };
    if (upload.blob.size > assistant.files.maxFileBytes)
      return {
        ok: false,
        error: `${upload.filename} is ${upload.blob.size} bytes; the limit is ${assistant.files.maxFileBytes}.`,
      };
    const form = new FormData();
    form.set('conversationId', upload.conversationId);
    if (upload.interruptId) form.set('interruptId', upload.interruptId);
    // A File carries its name through every FormData implementation (a Blob's third argument may not).
    const file = new File([upload.blob], upload.filename, { type: upload.blob.type });
    form.set('file', file, upload.filename);
    const response = await client.raw('/files', { method: 'POST', body: form });
    if (!response.ok) return { ok: false, error: (await decodeRefusal(response)).message };
    return { ok: true, file: (await response.json()) as FileDescriptor };
  } catch (error) {
    return {
      ok: false,
      error: CodedError.isInstance(error) ? error.message : 'The file could not be uploaded.',
    };
  }
}

/** Saves a delivered file: fetched with the session (the URL alone is not enough), then downloaded. */
export async function downloadFile(client: HubClient, file: FileDescriptor): Promise<void> {
  const response = await client.raw(file.downloadUrl);
  if (!response.ok) throw await decodeRefusal(response);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
