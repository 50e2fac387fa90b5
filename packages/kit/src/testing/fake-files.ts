import { type FakeHubContext, refusal } from './fake-hub.js';
import { newId } from './fake-state.js';

const FORMATS: Record<string, string> = {
  'text/plain': 'txt',
  'text/csv': 'csv',
  'image/png': 'png',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'text/markdown': 'md',
};

/** `POST /files` (multipart: `conversationId`, `interruptId?`, `file`) → `201 FileDescriptor`. */
export async function uploadFakeFile(
  context: FakeHubContext,
  visitorId: string,
  request: Request,
): Promise<Response> {
  const { assistant, hub } = context;
  if (!assistant.files.enabled) return refusal('not_enabled', 'This assistant does not accept files.');
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refusal('invalid_input', 'The body is not multipart/form-data.');
  }
  const conversationId = form.get('conversationId');
  const interruptId = form.get('interruptId');
  const file = form.get('file');
  const conversation = typeof conversationId === 'string' ? hub.conversations.get(conversationId) : undefined;
  if (!conversation || conversation.visitorId !== visitorId) return refusal('not_found');
  if (!file || typeof file === 'string') return refusal('invalid_input', 'The form has no file.');
  if (file.size > assistant.files.maxFileBytes) return refusal('too_large');
  const fileId = newId('f');
  const descriptor = {
    fileId,
    filename: [...file.name]
      .map((char) => (char < ' ' || char === '/' || char === '\\' ? '_' : char))
      .join('')
      .slice(0, 255),
    format: FORMATS[file.type.split(';')[0]!] ?? 'bin',
    downloadUrl: `/api/hub/files/${fileId}`,
    sizeBytes: file.size,
  };
  hub.files.set(fileId, {
    descriptor,
    visitorId,
    conversationId: conversation.id,
    interruptId: typeof interruptId === 'string' ? interruptId : null,
    blob: file,
    type: file.type,
  });
  return Response.json(descriptor, { status: 201, headers: { 'cache-control': 'no-store' } });
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
