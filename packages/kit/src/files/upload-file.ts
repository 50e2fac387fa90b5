import { FILE_UPLOAD_PARTS, type FileDescriptor, HUB_ROUTES, hubPath } from '@diosc/protocol';
import { errorText } from '../browser-calls/browser-call.js';
import { decodeRefusal, type HubClient } from '../hub-client/hub-client.js';

export type Delivery = { ok: true; file: FileDescriptor } | { ok: false; error: string };

/**
 * Uploads one file through the visitor's session (`POST /conversations/:id/files`, multipart) — the one path
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
    // The interrupt it answers first, then the file (a File carries its name through every FormData).
    const form = new FormData();
    if (upload.interruptId) form.append(FILE_UPLOAD_PARTS.interruptId, upload.interruptId);
    form.append(FILE_UPLOAD_PARTS.file, new File([upload.blob], upload.filename, { type: upload.blob.type }));
    const response = await client.raw(hubPath('uploadFile', upload.conversationId), {
      method: HUB_ROUTES.uploadFile.method,
      body: form,
    });
    if (!response.ok) return { ok: false, error: (await decodeRefusal(response)).message };
    return { ok: true, file: (await response.json()) as FileDescriptor };
  } catch (error) {
    return {
      ok: false,
      error: errorText(error),
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
