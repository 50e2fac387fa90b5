import { Readable } from 'node:stream';
import { DioscError, HUB_ROUTES } from '@diosc/protocol';
import type { FastifyPluginAsync } from 'fastify';
import { parseByteRange } from '../files/byte-range.js';
import { attachmentDisposition } from '../files/content-disposition.js';
import { isTextType } from '../files/file-formats.js';
import type { HubServices } from '../hub-services.js';

/**
 * Headers of every download. The bytes are whatever a page uploaded, so they must never run on the
 * hub's origin: always an attachment, never sniffed into another type, and under a CSP sandbox
 * that gives an HTML or SVG opened anyway no script, no origin and nothing to load.
 */
export const DOWNLOAD_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'private, no-store',
  'content-security-policy': "sandbox; default-src 'none'",
  'accept-ranges': 'bytes',
} as const;

/**
 * `GET /files/:id` — a descriptor's `downloadUrl`. Works only with the bearer session of the
 * visitor the file belongs to: the URL itself is no credential. Another visitor's file, a forged id
 * and one still being written all answer `not_found`; one past retention `file_expired`.
 */
export function downloadRoute(hub: HubServices): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { id: string } }>(HUB_ROUTES.downloadFile.path, async (request, reply) => {
      const visitor = request.visitor!;
      const row = await hub.files.store.find(request.params.id);
      if (
        !row ||
        row.status === 'writing' ||
        row.assistant_id !== visitor.assistantId ||
        row.visitor_id !== visitor.visitorId
      )
        throw new DioscError('not_found', 'There is no such file.');
      if (row.status === 'expired' || Number(row.expires_at) <= hub.clock.now())
        throw new DioscError('file_expired');

      const size = Number(row.size_bytes);
      const range = parseByteRange(request.headers.range, size);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${size}`);
        throw new DioscError('range_not_satisfiable');
      }
      const { start, end } = range ?? { start: 0, end: size - 1 };
      reply
        .headers(DOWNLOAD_HEADERS)
        .header(
          'content-type',
          isTextType(row.media_type) ? `${row.media_type}; charset=utf-8` : row.media_type,
        )
        .header('content-disposition', attachmentDisposition(row.filename))
        .header('content-length', end - start + 1);
      if (range) reply.status(206).header('content-range', `bytes ${start}-${end}/${size}`);
      return reply.send(Readable.from(hub.files.store.read(row, start, end)));
    });
  };
}
