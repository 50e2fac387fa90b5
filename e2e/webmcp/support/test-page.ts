import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { bundlePage } from '../../support/bundle-page.js';

const ENTRY = fileURLToPath(new URL('../page/test-page.ts', import.meta.url));

/** Bundles the test page (the real `@diosc/webmcp` and its protocol imports) into one ES module. */
export function bundleTestPage(): Promise<string> {
  return bundlePage(ENTRY);
}

const HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Diosc WebMCP native test</title></head>
<body>
<p>Adapter state: <output id="state">loading</output></p>
<dialog id="review"><p id="review-summary"></p><pre id="review-input"></pre>
<button id="accept" type="button">Accept</button> <button id="reject" type="button">Reject</button></dialog>
<script type="module" src="/__test/webmcp/page.js"></script>
</body></html>`;

/**
 * Routes of the test page: `/__test/webmcp` with `Permissions-Policy: tools=(self)` and
 * `Origin-Agent-Cluster: ?1` (what the shell sends), or `tools=()` with `?tools=none`. Like the
 * portal shell the page is `no-cache` (revalidated, but allowed into the back/forward cache).
 */
export function addTestPage(app: FastifyInstance, script: string): void {
  app.get<{ Querystring: { tools?: string } }>('/__test/webmcp', async (request, reply) => {
    reply.header('permissions-policy', request.query.tools === 'none' ? 'tools=()' : 'tools=(self)');
    reply.header('origin-agent-cluster', '?1');
    reply.header('cache-control', 'no-cache');
    reply.type('text/html; charset=utf-8');
    return HTML;
  });
  app.get('/__test/webmcp/page.js', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.type('text/javascript; charset=utf-8');
    return script;
  });
}
