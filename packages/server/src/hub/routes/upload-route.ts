import { DioscError, FILE_UPLOAD_PARTS, HUB_ROUTES } from '@diosc/protocol';
import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { filesPermissionOf } from '../assistants/assistant-config.js';
import { descriptorOf } from '../files/file-descriptor.js';
import type { HubServices } from '../hub-services.js';
import { requireCallOfVisitor } from '../tool-calls/call-of-visitor.js';

/** What multipart framing may add around the file's bytes before a Content-Length is plainly too large. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const UPLOADS_PER_MINUTE = 30;

/**
 * `POST /conversations/:id/files` (multipart/form-data): one file part named `file`, optionally
 * preceded by a field `interruptId` naming the pending browser-tool interrupt it answers; nothing
 * else (`uploadParts`). The same
 * endpoint serves a tool's file and the widget's file picker, so the same session and the
 * assistant's file permission apply to both. Answers `201` with the descriptor.
 */
export function uploadRoute(hub: HubServices): FastifyPluginAsync {
  return async (app) => {
    // Streamed: busboy hands over the part as it arrives; nothing is attached to the body.
    await app.register(multipart, {
      throwFileSizeLimit: false,
      // Two files, so a second one reaches `uploadParts` and is refused by name, not by a limit.
      limits: { files: 2, fields: 4, fieldSize: 256, parts: 6, headerPairs: 64 },
    });
    app.post<{ Params: { id: string } }>(
      HUB_ROUTES.uploadFile.path,
      {
        config: {
          rateLimit: {
            hook: 'preHandler' as const,
            timeWindow: 60_000,
            max: UPLOADS_PER_MINUTE,
            keyGenerator: (request: FastifyRequest) => `upload:${request.visitor?.id ?? 'none'}`,
          },
        },
      },
      async (request, reply) => {
        const visitor = request.visitor!;
        const conversation = await hub.conversations.requireOwned(request.params.id, visitor);
        const assistant = await hub.assistants.find(conversation.assistant_id);
        if (!assistant) throw new DioscError('not_found', 'There is no such conversation.');
        const permission = filesPermissionOf(assistant.config);
        if (!permission.enabled) throw new DioscError('files_not_enabled');
        if (!request.isMultipart())
          throw new DioscError('unsupported_media_type', 'Upload the file as multipart/form-data.');
        const length = Number(request.headers['content-length'] ?? Number.NaN);
        if (length > permission.maxFileBytes + MULTIPART_OVERHEAD_BYTES)
          throw new DioscError('file_too_large', `The file is over the ${permission.maxFileBytes}-byte cap.`);

        // busboy stops a part one byte past the cap; the writer refuses it at that byte.
        const { interruptId, part, bytes } = await uploadParts(request, permission.maxFileBytes + 1);
        if (interruptId !== undefined) {
          const { call, turn } = await requireCallOfVisitor(hub, visitor, interruptId, ['browser', 'intent']);
          if (turn.conversationId !== conversation.id)
            throw new DioscError('not_found', 'There is no such request.');
          if (call.status !== 'interrupt') throw new DioscError('interrupt_not_pending');
        }
        const row = await hub.files.write({
          bytes,
          owner: { assistantId: assistant.id, conversationId: conversation.id, visitorId: visitor.visitorId },
          source: 'upload',
          interruptId: interruptId ?? null,
          filename: part.filename ?? '',
          declaredType: part.mimetype,
          allowedTypes: permission.allowedTypes,
          maxFileBytes: permission.maxFileBytes,
          permission,
        });
        reply.status(HUB_ROUTES.uploadFile.status);
        return descriptorOf(row);
      },
    );
  };
}

const NAME_ECHO_MAX = 64;

/**
 * Reads the upload's parts in order: at most one text field `interruptId`, then exactly one file
 * part `file`, then nothing. Any other field, a field given twice, a part after the file (a
 * second file, a late field) is `invalid_input`. The file's bytes come back as a stream that,
 * once the file has ended, checks that no part follows — before the writer commits, so a refused
 * upload stores nothing.
 */
async function uploadParts(request: FastifyRequest, fileSize: number) {
  const parts = request.parts({ limits: { fileSize } })[Symbol.asyncIterator]();
  let interruptId: string | undefined;
  for (;;) {
    const part = await nextPart(parts);
    if (part === undefined)
      throw new DioscError('invalid_input', 'The upload needs one file part named "file".');
    if (part.type === 'file') {
      if (part.fieldname !== FILE_UPLOAD_PARTS.file) {
        part.file.resume();
        throw new DioscError('invalid_input', 'The upload needs one file part named "file".');
      }
      return { interruptId, part, bytes: fileThenNothing(part.file, parts) };
    }
    if (part.fieldname === FILE_UPLOAD_PARTS.file)
      throw new DioscError('invalid_input', 'The part "file" must be a file, sent with a filename.');
    if (part.fieldname !== FILE_UPLOAD_PARTS.interruptId)
      throw new DioscError(
        'invalid_input',
        `The upload has an unknown field "${part.fieldname.slice(0, NAME_ECHO_MAX)}"; only "interruptId" and "file" are read.`,
      );
    if (interruptId !== undefined || typeof part.value !== 'string' || part.valueTruncated)
      throw new DioscError('invalid_input', 'The field "interruptId" must be given once, as text.');
    interruptId = part.value;
  }
}

/** The file's bytes, then a check that the upload ends with it. */
async function* fileThenNothing(
  file: AsyncIterable<Uint8Array>,
  parts: AsyncIterator<Multipart>,
): AsyncGenerator<Uint8Array> {
  yield* file;
  const refusal = () =>
    new DioscError('invalid_input', 'The upload takes one file part and nothing after it.');
  let after: Multipart | undefined;
  try {
    after = await nextPart(parts);
  } catch (error) {
    // A part limit of the parser, reached past the file, is the same refusal.
    if (DioscError.isInstance(error)) throw error;
    throw refusal();
  }
  if (after !== undefined) {
    if (after.type === 'file') after.file.resume();
    throw refusal();
  }
}

/**
 * The upload's next part, or undefined at its end. busboy rejects framing it cannot read (no
 * boundary line, a body cut off in the headers) with a plain `Error`; that is the sender's fault,
 * not the server's, so it is `invalid_input` like a body cut off inside the part.
 */
async function nextPart(parts: AsyncIterator<Multipart>): Promise<Multipart | undefined> {
  try {
    const next = await parts.next();
    return next.done ? undefined : next.value;
  } catch (error) {
    if (DioscError.isInstance(error) || hasStatus(error)) throw error;
    throw new DioscError('invalid_input', 'The upload was cut off or is not valid multipart data.', {
      cause: error,
    });
  }
}

/** @fastify/multipart's own errors (too many parts, fields, files) carry a 4xx the error reply maps. */
function hasStatus(error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}
