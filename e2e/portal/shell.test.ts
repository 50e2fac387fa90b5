import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '@diosc/server';
import { openTestStore, type TestStore } from '@diosc/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePortalBuilt, PORTAL_DIST } from './support/portal-build.js';

/** The server's portal shell: the built app at `/`, SPA fallback, its headers, and a missing build. */

let store: TestStore;

async function appWith(portalDir: string) {
  return buildApp({
    config: { ...store.config, portalDir },
    store: store.store,
    clock: store.clock,
    logger: false,
  });
}

beforeAll(async () => {
  await ensurePortalBuilt();
  store = await openTestStore();
});

afterAll(async () => {
  await store?.close();
});

describe('portal shell', () => {
  it('serves the shell with its security headers at / and at every client route', async () => {
    const app = await appWith(PORTAL_DIST);
    for (const url of ['/', '/automation-hub', '/collections/notes/groceries', '/sign-in?next=x']) {
      const response = await app.inject({ url, headers: { accept: 'text/html,*/*' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['permissions-policy']).toBe('tools=(self)');
      expect(response.headers['origin-agent-cluster']).toBe('?1');
      expect(response.headers['cache-control']).toBe('no-cache');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.body).toContain('<script type="module"');
    }
    await app.close();
  });

  it('serves hashed assets as immutable and keeps API and unknown paths JSON', async () => {
    const app = await appWith(PORTAL_DIST);
    const shell = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(shell.body)?.[1];
    expect(script).toBeTruthy();
    const asset = await app.inject({ url: script! });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['content-type']).toMatch(/javascript/);

    const favicon = await app.inject({ url: '/favicon.svg' });
    expect(favicon.statusCode).toBe(200);

    for (const url of ['/api/owner/nope', '/assets/missing.js', '/mcp/x']) {
      const response = await app.inject({ url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    // A script asking for JSON at a client route gets the API's 404, not HTML.
    const json = await app.inject({ url: '/automation-hub', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toMatchObject({ error: { code: 'not_found' } });
    // Owner API responses are unaffected by the shell.
    const session = await app.inject({ url: '/api/owner/session', headers: { accept: 'text/html' } });
    expect(session.statusCode).toBe(401);
    expect(session.headers['cache-control']).toBe('no-store');
    await app.close();
  });

  it('says how to build the portal when the build is missing, and keeps running', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'diosc-no-portal-'));
    try {
      const app = await appWith(empty);
      const response = await app.inject({ url: '/automation-hub', headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.body).toContain('npm run build');
      const health = await app.inject({ url: '/healthz' });
      expect(health.statusCode).toBe(200);
      await app.close();
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
