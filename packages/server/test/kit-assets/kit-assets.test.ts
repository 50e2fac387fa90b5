import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestServer } from '@diosc/server/testing';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_KIT_DIR, kitAssetsPlugin } from '../../src/kit-assets/plugin.js';

const DIR = fileURLToPath(new URL(`../../../../test-results/kit-assets-${process.pid}/`, import.meta.url));
mkdirSync(DIR, { recursive: true });
writeFileSync(`${DIR}diosc-kit.js`, 'window.kit = "stable";');
writeFileSync(`${DIR}diosc-kit.0123456789ab.js`, 'window.kit = "hashed";');
writeFileSync(`${DIR}diosc-kit.mjs`, 'export const kit = 1;');
writeFileSync(`${DIR}diosc-kit-webmcp.abcdefabcdef.js`, 'window.bridge = 1;');
writeFileSync(`${DIR}diosc-kit-markdown.abcdefabcdef.js`, 'window.parser = 1;');
writeFileSync(`${DIR}manifest.json`, '{"script":"diosc-kit.js"}');
writeFileSync(`${DIR}secret.txt`, 'not served');
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

async function app(dir = DIR) {
  const server = Fastify();
  await server.register(kitAssetsPlugin, { dir });
  return server;
}

describe('the hub serves the built kit', () => {
  it('at a stable URL (revalidated) and a hashed immutable one, to any origin, as JavaScript', async () => {
    const server = await app();
    const stable = await server.inject('/kit/diosc-kit.js');
    expect(stable.statusCode).toBe(200);
    expect(stable.body).toBe('window.kit = "stable";');
    expect(stable.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'x-content-type-options': 'nosniff',
    });
    const hashed = await server.inject('/kit/diosc-kit.0123456789ab.js');
    expect([hashed.body, hashed.headers['cache-control']]).toEqual([
      'window.kit = "hashed";',
      'public, max-age=31536000, immutable',
    ]);
    expect((await server.inject('/kit/diosc-kit.mjs')).headers['cache-control']).toBe('no-cache');
    for (const part of ['webmcp', 'markdown'])
      expect((await server.inject(`/kit/diosc-kit-${part}.abcdefabcdef.js`)).headers['cache-control']).toBe(
        'public, max-age=31536000, immutable',
      );
    expect((await server.inject('/kit/manifest.json')).headers['content-type']).toBe(
      'application/json; charset=utf-8',
    );
  });

  it('serves nothing else: other names, traversal and unbuilt hashes are 404; an unbuilt kit says how to build it', async () => {
    const server = await app();
    for (const path of [
      '/kit/secret.txt',
      '/kit/..%2Fsecret.txt',
      '/kit/diosc-kit.ffffffffffff.js',
      '/kit/diosc-kit.js.map',
    ])
      expect((await server.inject(path)).statusCode, path).toBe(404);
    const unbuilt = await (await app(`${DIR}missing/`)).inject('/kit/diosc-kit.js');
    expect([unbuilt.statusCode, unbuilt.headers['cache-control']]).toEqual([503, 'no-store']);
    expect(unbuilt.body).toContain('npm run build --workspace @diosc/kit');
  });

  it('compresses as the client allows: Brotli first, then gzip, else the bytes as they are', async () => {
    const server = await app();
    const plain = 'window.kit = "stable";';
    const br = await server.inject({
      url: '/kit/diosc-kit.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect([br.headers['content-encoding'], br.headers.vary]).toEqual(['br', 'accept-encoding']);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gz = await server.inject({
      url: '/kit/diosc-kit.js',
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain);
    const none = await server.inject({
      url: '/kit/diosc-kit.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect([none.headers['content-encoding'], none.body]).toEqual([undefined, plain]);
    // Each representation has its own validator.
    expect(new Set([br.headers.etag, gz.headers.etag, none.headers.etag]).size).toBe(3);
  });

  it('answers a repeat view with 304 and no body, and a changed kit with the new bytes', async () => {
    const server = await app();
    const headers = { 'accept-encoding': 'br' };
    const first = await server.inject({ url: '/kit/diosc-kit.js', headers });
    const etag = String(first.headers.etag);
    const again = await server.inject({
      url: '/kit/diosc-kit.js',
      headers: { ...headers, 'if-none-match': etag },
    });
    expect([again.statusCode, again.rawPayload.length, again.headers.etag]).toEqual([304, 0, etag]);
    expect(again.headers['cache-control']).toBe('no-cache');
    const weak = await server.inject({
      url: '/kit/diosc-kit.js',
      headers: { ...headers, 'if-none-match': `"x", W/${etag}` },
    });
    expect(weak.statusCode).toBe(304);
    // Another representation's validator is not this one's.
    const gzipAsked = await server.inject({
      url: '/kit/diosc-kit.js',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(gzipAsked.statusCode).toBe(200);
    writeFileSync(`${DIR}diosc-kit.js`, 'window.kit = "rebuilt";');
    utimesSync(`${DIR}diosc-kit.js`, new Date(), new Date(Date.now() + 5_000));
    const rebuilt = await server.inject({
      url: '/kit/diosc-kit.js',
      headers: { ...headers, 'if-none-match': etag },
    });
    expect(rebuilt.statusCode).toBe(200);
    expect(brotliDecompressSync(rebuilt.rawPayload).toString()).toBe('window.kit = "rebuilt";');
    writeFileSync(`${DIR}diosc-kit.js`, 'window.kit = "stable";');
  });

  it('sends the built kit in at most 30,000 bytes to a browser on a first view, and none on a repeat one', async () => {
    const server = await app(DEFAULT_KIT_DIR);
    const manifest = JSON.parse(readFileSync(`${DEFAULT_KIT_DIR}/manifest.json`, 'utf8')) as {
      immutableScript: string;
    };
    const headers = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const first = await server.inject({ url: '/kit/diosc-kit.js', headers });
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.length).toBeLessThanOrEqual(30_000);
    expect(
      brotliDecompressSync(first.rawPayload).equals(readFileSync(`${DEFAULT_KIT_DIR}/diosc-kit.js`)),
    ).toBe(true);
    const repeat = await server.inject({
      url: '/kit/diosc-kit.js',
      headers: { ...headers, 'if-none-match': String(first.headers.etag) },
    });
    expect([repeat.statusCode, repeat.rawPayload.length]).toEqual([304, 0]);
    const hashed = await server.inject({ url: `/kit/${manifest.immutableScript}`, headers });
    expect(hashed.rawPayload.length).toBe(first.rawPayload.length);
  });

  it('is part of the server (a /kit/ path never falls through to the portal shell)', async () => {
    const server = await startTestServer();
    try {
      const response = await fetch(`${server.url}/kit/not-the-kit.js`, { headers: { accept: 'text/html' } });
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('Not found.\n');
    } finally {
      await server.close();
    }
  });
});
