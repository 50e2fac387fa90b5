import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { bundlePage } from '../support/bundle-page.js';

const ENTRY = fileURLToPath(new URL('./page/ag-ui-app.ts', import.meta.url));

/** The front end's script: `@ag-ui/client` and the page's driver, bundled for the browser. */
export function bundleAgUiApp(): Promise<string> {
  return bundlePage(ENTRY, 'es');
}

/**
 * The front end's routes on the test server (`/agui` and its script). The page is opened on another
 * origin than the hub's, so every AG-UI run is a real cross-origin request under the hub's CORS.
 */
export function addAgUiPage(app: FastifyInstance, script: string): void {
  app.get('/agui', async (_request, reply) =>
    reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An AG-UI front end</title>' +
          '<script type="module" src="/agui-assets/app.js"></script></head><body><main></main></body></html>',
      ),
  );
  app.get('/agui-assets/app.js', async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/javascript; charset=utf-8').send(script),
  );
}
