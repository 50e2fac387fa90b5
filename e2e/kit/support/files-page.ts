import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { bundlePage } from '../../support/bundle-page.js';

const ENTRY = fileURLToPath(new URL('../page/files-app.ts', import.meta.url));

export const bundleFilesApp = () => bundlePage(ENTRY);

/** `/files-test`: the kit imported as a module, talking to the in-page fake hub. */
export function addFilesPage(app: FastifyInstance, script: string): void {
  app.get('/files-test', async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Files</title><script type="module" src="/files-test/app.js"></script></head><body><h1>Chart editor</h1></body></html>',
      ),
  );
  app.get('/files-test/app.js', async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/javascript; charset=utf-8').send(script),
  );
}
