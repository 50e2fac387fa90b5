import { FILE_UPLOAD_PARTS } from '@diosc/protocol';
import { json, refusal } from './fake-reply.js';
import { type FakeConversation, type FakeHubContext, newId } from './fake-state.js';

const FORMATS: Record<string, string> = {
  'text/plain': 'txt',
  'text/csv': 'csv',
  'image/png': 'png',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'text/markdown': 'md',
};

/** `POST /conversations/:id/files` (multipart: `interruptId?`, then `file`) → `201 FileDescriptor`. */
export async function uploadFakeFile(
  context: FakeHubContext,
  conversation: FakeConversation,
  request: Request,
): Promise<Response> {
  const { assistant, hub } = context;
  if (!assistant.files.enabled) return refusal('files_not_enabled');
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refusal('unsupported_media_type', 'Upload the file as multipart/form-data.');
  }
  const interruptId = form.get(FILE_UPLOAD_PARTS.interruptId);
  const file = form.get(FILE_UPLOAD_PARTS.file);
  if (!file || typeof file === 'string')
    return refusal('invalid_input', 'The upload needs one file part named "file".');
  if (typeof interruptId === 'string' && !conversation.interrupts.has(interruptId))
    return refusal('interrupt_not_pending');
  if (file.size > assistant.files.maxFileBytes) return refusal('file_too_large');
  const fileId = newId('fil');
  const descriptor = {
    fileId,
    filename: [...file.name]
      .map((char) => (char < ' ' || char === '/' || char === '\\' ? '_' : char))
      .join('')
      .slice(0, 200),
    format: FORMATS[file.type.split(';')[0]!] ?? 'bin',
    downloadUrl: `/api/hub/files/${fileId}`,
    sizeBytes: file.size,
  };
  hub.files.set(fileId, {
    descriptor,
    visitorId: conversation.visitorId,
    conversationId: conversation.id,
    interruptId: typeof interruptId === 'string' ? interruptId : null,
    blob: file,
    type: file.type,
  });
  return json(descriptor, 201);
}

/** `GET /files/:id`: only with the uploading visitor's session, always as an attachment. */
export function downloadFakeFile(context: FakeHubContext, visitorId: string, fileId: string): Response {
  const stored = context.hub.files.get(fileId);
  if (!stored || stored.visitorId !== visitorId) return refusal('not_found');
  return new Response(stored.blob, {
    headers: {
      'content-type': stored.type || 'application/octet-stream',
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(stored.descriptor.filename)}`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    },
  });
}
