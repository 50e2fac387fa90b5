import { resolve } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { SERVER_PACKAGE_DIR } from '../package-dir.js';
import { createKitFileCache, matchesEtag, pickEncoding } from './kit-file-cache.js';

/** Where `npm run build` puts the kit: packages/kit/dist, beside this package. */
export const DEFAULT_KIT_DIR = resolve(SERVER_PACKAGE_DIR, '../kit/dist');

/** `diosc-kit.js` / `.mjs` (stable), `diosc-kit.<12 hex>.js` / `.mjs` and the on-demand parts `diosc-kit-webmcp.<12 hex>.js` and `diosc-kit-markdown.<12 hex>.js` (content-hashed). */
const KIT_FILE = /^diosc-kit(-webmcp|-markdown)?(\.[0-9a-f]{12})?\.m?js$/;

const NOT_BUILT =
  'The Diosc kit is not built yet. Run `npm run build --workspace @diosc/kit` (or `npm start`).\n';

/**
 * Serves the built kit to any embedding page at `/kit/diosc-kit.js` (the `<script async>` build) and
 * `/kit/diosc-kit.mjs` (the ES module): the stable names are revalidated on every load
 * (`no-cache` with an ETag, so a repeat view is a 304), the content-hashed names are cached forever
 * (`immutable`); Brotli or gzip when the client takes them. Public files, so any
 * origin may load them (`Access-Control-Allow-Origin: *`, needed for modules and `integrity`), and
 * `dist/manifest.json` says which hashed name is current with its SRI digest.
 */
export const kitAssetsPlugin: FastifyPluginAsync<{ dir?: string }> = async (app, options) => {
  const dir = options.dir ?? app.diosc.config.kitDir ?? DEFAULT_KIT_DIR;
  const cache = createKitFileCache(dir);
  app.get<{ Params: { file: string } }>('/kit/:file', async (request, reply) => {
    const { file } = request.params;
    reply.header('x-content-type-options', 'nosniff');
    reply.header('access-control-allow-origin', '*');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    const allowed = file === 'manifest.json' || KIT_FILE.test(file);
    const found = allowed ? await cache.get(file) : undefined;
    if (found) {
      const hashed = KIT_FILE.exec(file)?.[2] !== undefined;
      const encoding = pickEncoding(request.headers['accept-encoding']);
      const etag = found.etags[encoding];
      reply
        .header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
        .header('vary', 'accept-encoding')
        .header('etag', etag);
      // A repeat view of the stable name revalidates: the same kit costs headers, no bytes.
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply
        .type(file.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8')
        .send(found.bodies[encoding]);
    }
    if (file === 'diosc-kit.js' || file === 'diosc-kit.mjs' || file === 'manifest.json')
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(NOT_BUILT);
    return reply
      .status(404)
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send('Not found.\n');
  });
};
