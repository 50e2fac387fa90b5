import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '@diosc/server/testing';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { kitAssetsPlugin } from '../../src/kit-assets/plugin.js';

const DIR = fileURLToPath(new URL(`../../../../test-results/kit-assets-${process.pid}/`, import.meta.url));
mkdirSync(DIR, { recursive: true });
writeFileSync(`${DIR}diosc-kit.js`, 'window.kit = "stable";');
writeFileSync(`${DIR}diosc-kit.0123456789ab.js`, 'window.kit = "hashed";');
writeFileSync(`${DIR}diosc-kit.mjs`, 'export const kit = 1;');
writeFileSync(`${DIR}diosc-kit-webmcp.abcdefabcdef.js`, 'window.bridge = 1;');
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
    expect((await server.inject('/kit/diosc-kit-webmcp.abcdefabcdef.js')).headers['cache-control']).toBe(
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
