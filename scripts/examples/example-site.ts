import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

export interface ExampleSiteOptions {
  /** The example's Vite build (`examples/<name>/dist`). */
  dist: string;
  /** The hub the page's kit talks to. */
  hubUrl: string;
  /** The assistant's publishable key (`pk_…`, not a secret). */
  publishableKey: string;
}

const escapeAttribute = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * The page's policy: only its own scripts, and network access to itself and the hub. `blob:` images
 * are for Plynth's PNG export; styles may be inline because the kit's widget sets a few.
 */
export function exampleCsp(hubUrl: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self' ${new URL(hubUrl).origin}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * The tiny server an example runs on: its own origin (so every hub call is cross-origin, as on a real
 * site), Vite's hashed assets cached forever, and the HTML for every other page — the app's router
 * decides what a path shows — with the hub's URL and the publishable key in two `<meta>` tags.
 */
export async function buildExampleSite(options: ExampleSiteOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const template = await readFile(join(options.dist, 'index.html'), 'utf8');
  const html = template.replace(
    /<!-- diosc-config:[^>]*-->/,
    `<meta name="diosc-hub-url" content="${escapeAttribute(options.hubUrl)}" />\n    <meta name="diosc-publishable-key" content="${escapeAttribute(options.publishableKey)}" />`,
  );
  await app.register(fastifyStatic, {
    root: join(options.dist, 'assets'),
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    index: false,
  });
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    // A missing file (`/favicon.ico`, a stale asset) is a 404, not the page.
    if (/\.[A-Za-z0-9]+$/.test(request.url.split('?')[0]!)) return reply.callNotFound();
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', exampleCsp(options.hubUrl))
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .send(html);
  };
  app.get('/', page);
  app.get('/*', page);
  return app;
}
