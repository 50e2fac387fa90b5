import { Readable } from 'node:stream';
import { DioscError } from '@diosc/protocol';
import type { FastifyInstance } from 'fastify';
import { attachmentDisposition } from '../../hub/files/content-disposition.js';
import { isTextType } from '../../hub/files/file-formats.js';
import { DOWNLOAD_HEADERS } from '../../hub/routes/download-route.js';
import { hubOf, ownedAssistant } from './assistant-scope.js';

/** Where the owner downloads a file of one of the assistant's conversations (the transcript's chips). */
export function ownerFileUrl(assistantId: string, fileId: string): string {
  return `/api/owner/assistants/${assistantId}/files/${fileId}`;
}

/**
 * `GET /:id/files/:fileId` — a file of this assistant's conversations, for its owner: with the same
 * headers as the visitor's download (always an attachment, never sniffed, sandboxed), so bytes a
 * page uploaded never run on the hub's origin.
 */
export function registerFileRoutes(app: FastifyInstance): void {
  app.get('/:id/files/:fileId', async (request, reply) => {
    const assistant = await ownedAssistant(app, request);
    const { services } = hubOf(app);
    const { fileId } = request.params as { fileId: string };
    const row = await services.files.store.find(fileId);
    if (!row || row.status === 'writing' || row.assistant_id !== assistant.id)
      throw new DioscError('not_found', 'There is no such file.');
    if (row.status === 'expired' || Number(row.expires_at) <= services.clock.now())
      throw new DioscError('file_expired');
    const size = Number(row.size_bytes);
    return reply
      .headers(DOWNLOAD_HEADERS)
      .header(
        'content-type',
        isTextType(row.media_type) ? `${row.media_type}; charset=utf-8` : row.media_type,
      )
      .header('content-disposition', attachmentDisposition(row.filename))
      .header('content-length', size)
      .send(Readable.from(services.files.store.read(row, 0, size - 1)));
  });
}
