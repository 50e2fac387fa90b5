import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_PACKAGE_DIR } from '../package-dir.js';
import { acceptsHtml, isShellPath, SHELL_HEADERS } from './shell-headers.js';

/** Where `npm run build` puts the portal: packages/portal/dist, beside this package. */
export const DEFAULT_PORTAL_DIR = resolve(SERVER_PACKAGE_DIR, '../portal/dist');

const NOT_BUILT =
  'The Diosc portal is not built yet. Run `npm run build --workspace @diosc/portal` ' +
  '(or `npm start`, which builds it) and reload this page.\n';

/** A top-level file Vite copied from `public/` (favicon, manifest): plain names only, no traversal. */
const ROOT_FILE = /^\/([A-Za-z0-9][A-Za-z0-9._-]*\.[A-Za-z0-9]+)$/;

/**
 * Serves the built portal: hashed assets under `/assets/` (immutable), the few top-level files of
 * `public/`, and the HTML shell for every other navigation (`Accept: text/html`) that is not an API
 * path, so client-side routes survive a reload. A missing build is reported, never a crash.
 */
export const portalShellPlugin: FastifyPluginAsync = async (app) => {
  const dir = app.diosc.config.portalDir ?? DEFAULT_PORTAL_DIR;
  if (!existsSync(join(dir, 'index.html'))) {
    app.log.warn({ dir }, 'portal build not found; serving a notice until it is built');
  }

  await app.register(fastifyStatic, {
    root: join(dir, 'assets'),
    prefix: '/assets/',
    decorateReply: true,
    index: false,
    // Vite names every asset by content hash, so a file under /assets/ never changes.
    immutable: true,
    maxAge: '365d',
    setHeaders(reply) {
      reply.header('x-content-type-options', 'nosniff');
    },
  });

  async function shell(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0] ?? '/';
    if (!isShellPath(path)) return reply.callNotFound();

    const rootFile = ROOT_FILE.exec(path)?.[1];
    if (rootFile && rootFile !== 'index.html' && isFile(join(dir, rootFile))) {
      return reply.header('cache-control', 'no-cache').sendFile(rootFile, dir);
    }
    if (!acceptsHtml(request.headers.accept)) return reply.callNotFound();

    let html: string;
    try {
      html = await readFile(join(dir, 'index.html'), 'utf8');
    } catch {
      return reply
        .status(503)
        .header('cache-control', 'no-store')
        .header('content-type', 'text/plain; charset=utf-8')
        .send(NOT_BUILT);
    }
    return reply.headers(SHELL_HEADERS).send(html);
  }

  app.get('/', shell);
  app.get('/*', shell);
};

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
