import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { bundlePage } from '../../support/bundle-page.js';

const ENTRY = fileURLToPath(new URL('../page/shop-app.ts', import.meta.url));

export function bundleShopApp(): Promise<string> {
  return bundlePage(ENTRY, 'iife');
}

/** The customer's page: the snippet, the app's queued calls, then the kit with `<script async>`. */
function html(kitSrc: string, integrity: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Northwind tea shop</title>
<style>.is-highlighted { outline: 3px solid orange; } body { font: 16px system-ui; margin: 2rem; }</style>
<script>window.diosc=window.diosc||function(){(window.diosc.q=window.diosc.q||[]).push(arguments)};</script>
<script src="/shop-assets/app.js"></script>
<script async src="${kitSrc}" integrity="${integrity}" crossorigin="anonymous"></script>
</head><body><main></main><script>/* SCRIPT-TEXT */</script><style>.never::after { content: "STYLE-TEXT"; }</style></body></html>`;
}

/**
 * The shop's routes on the test server: `/shop` and `/shop/*` answer the page (so a full-page
 * navigation lands on it again), `/shop-assets/app.js` its script. The page is opened on another
 * origin than the hub's, so every hub call is a real cross-origin request.
 */
export function addShopPage(
  app: FastifyInstance,
  script: string,
  kit: { src: string; integrity: string },
): void {
  const page = async (_request: unknown, reply: import('fastify').FastifyReply) =>
    reply
      .header('cache-control', 'no-store')
      .header('permissions-policy', 'tools=(self)')
      .type('text/html; charset=utf-8')
      .send(html(kit.src, kit.integrity));
  app.get('/shop', page);
  app.get('/shop/*', page);
  app.get('/shop-assets/app.js', async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('text/javascript; charset=utf-8').send(script),
  );
}
