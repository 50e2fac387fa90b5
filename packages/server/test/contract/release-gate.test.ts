import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIALECTS, startTestServer, type TestServer } from '@diosc/server/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { browserClient } from '../browser-access/browser-client.js';
import { connectClient, createConnection, parseResult } from '../mcp/support.js';
import { call, callJson, signIn } from '../owner/owner-client.js';
import { accountRows } from './rows.js';

/**
 * The release gate (issue 10, item 2): browser tools sit behind `DIOSC_BROWSER_TOOLS`. Off, every
 * browser-access endpoint answers `feature_disabled` and nothing is stored; HTTP MCP and Connected
 * apps work as before.
 */

describe('DIOSC_BROWSER_TOOLS', () => {
  it('is on by default in development, off when NODE_ENV=production unless explicitly on', () => {
    const gate = (env: Record<string, string>) => loadConfig(env, tmpdir()).browserAccess;
    expect(gate({})).toBe(true);
    expect(gate({ NODE_ENV: 'development' })).toBe(true);
    expect(gate({ NODE_ENV: 'test' })).toBe(true);
    expect(gate({ NODE_ENV: 'production' })).toBe(false);
    expect(gate({ NODE_ENV: 'production', DIOSC_BROWSER_TOOLS: 'on' })).toBe(true);
    expect(gate({ DIOSC_BROWSER_TOOLS: 'off' })).toBe(false);
    expect(gate({ NODE_ENV: 'production', DIOSC_BROWSER_TOOLS: '' })).toBe(false);
    expect(() => gate({ DIOSC_BROWSER_TOOLS: 'yes' })).toThrow(/DIOSC_BROWSER_TOOLS/);
  });

  it('reads browserTools from the config file too; the environment wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'diosc-gate-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ browserAccess: true }));
      expect(loadConfig({ DIOSC_CONFIG: file, NODE_ENV: 'production' }, dir).browserAccess).toBe(true);
      expect(loadConfig({ DIOSC_CONFIG: file, DIOSC_BROWSER_TOOLS: 'off' }, dir).browserAccess).toBe(false);
      writeFileSync(file, JSON.stringify({ browserAccess: false }));
      expect(loadConfig({ DIOSC_CONFIG: file }, dir).browserAccess).toBe(false);
      // The gate's old file key, or any key the server does not know, stops the start with its name
      // rather than being ignored (which would leave the gate at its default).
      writeFileSync(file, JSON.stringify({ browserTools: true }));
      expect(() => loadConfig({ DIOSC_CONFIG: file, NODE_ENV: 'production' }, dir)).toThrow(
        /Unknown setting in .*: browserTools \(the release gate is browserAccess now\)/,
      );
      writeFileSync(file, JSON.stringify({ port: 4000, prot: 4001 }));
      expect(() => loadConfig({ DIOSC_CONFIG: file }, dir)).toThrow(/Unknown setting in .*: prot$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(DIALECTS)('release gate off ($name)', (dialect) => {
  let server: TestServer;
  afterEach(() => server?.close());

  it('answers feature_disabled on every browser-access endpoint and stores nothing', async () => {
    server = await startTestServer({ dialect, config: { browserAccess: false } });
    const owner = await signIn(server.url);
    const browser = browserClient(server.url, owner);
    const before = await accountRows(server);
    const selection = [{ collection: 'notes', functions: ['items_list', 'item_write'] }];
    const write = {
      collection: 'notes',
      item: 'x',
      requestId: 'gate-0001',
      ifNoneMatch: '*',
      content: { body: 'x' },
    };
    const answers = [
      await browser.state(),
      await browser.enable(selection),
      await browser.descriptors(),
      await browser.dispatch('items_list', { collection: 'notes' }),
      await browser.prepare('item_write', write),
      await browser.acknowledge({ id: 'receipt', digest: 'digest' }),
      await browser.execute({ id: 'receipt', tool: 'item_write', input: write }),
      await browser.disable(),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect((answer.body as { error: { code: string } }).error.code).toBe('feature_disabled');
    }
    expect(await accountRows(server)).toEqual(before);
    await server.app.diosc.usage.flush();
    expect(await server.store.db.selectFrom('usage').selectAll().execute()).toEqual([]);
    // The owner's own checks still come first: no session is unauthenticated, no CSRF token is csrf_failed.
    expect((await call(server.url, '/browser-access', null)).status).toBe(401);
    const noCsrf = await callJson(server.url, '/browser-access', owner, {
      method: 'PUT',
      body: { selection },
      headers: { 'x-csrf-token': undefined },
    });
    expect((noCsrf.body as { error: { code: string } }).error.code).toBe('csrf_failed');
  });

  it('leaves HTTP MCP, Connected apps and the owner’s own calls as they are', async () => {
    server = await startTestServer({ dialect, config: { browserAccess: false } });
    const owner = await signIn(server.url);
    const created = await callJson<{ token: string; connection: { id: string } }>(
      server.url,
      '/connections',
      owner,
      {
        body: { displayName: 'Agent', grant: [{ collection: 'notes', functions: ['items_list'] }] },
      },
    );
    expect(created.status).toBe(201);
    const listed = await callJson<{ connections: unknown[] }>(server.url, '/connections', owner);
    expect(listed.body.connections).toHaveLength(1);
    const client = await connectClient(server, created.body.token);
    const result = parseResult(
      await client.callTool({ name: 'items_list', arguments: { collection: 'notes' } }),
    );
    expect(result.isError).toBe(false);
    await client.close();
    const other = await createConnection(server, [{ collection: 'inbox', functions: ['items_list'] }]);
    expect(other.token).toMatch(/^dsc_/);
    const own = await callJson(server.url, '/operations/items_list', owner, {
      body: { collection: 'inbox' },
    });
    expect(own.status).toBe(200);
    expect((await callJson(server.url, '/activity', owner)).status).toBe(200);
  });
});
