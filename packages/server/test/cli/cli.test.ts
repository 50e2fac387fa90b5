import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts } from '../../src/account/accounts.js';
import { buildApp } from '../../src/app.js';
import { verifyPassword } from '../../src/auth/passwords.js';
import { loadConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/store/dialect.js';

const root = resolve(import.meta.dirname, '../../../..');
const run = promisify(execFile);

/** Runs `npm run diosc -- …` the way the root script does, as a child process on a temp data dir. */
async function diosc(
  dir: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'packages/server/src/cli/main.ts', ...args],
      {
        cwd: root,
        env: {
          ...process.env,
          DIOSC_DATA_DIR: dir,
          DIOSC_OWNER_PASSWORD: 'first password',
          DIOSC_LOG_LEVEL: 'silent',
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('diosc CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-cli-'));
  let store: Store;
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    // The first command creates the owner and the demo collections, as `npm start` would.
    const first = await diosc(dir, 'connections', 'list');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('No HTTP MCP connections yet');
    store = await openStore({ sqlitePath: join(dir, 'diosc.sqlite') });
    app = await buildApp({ config: loadConfig({ DIOSC_DATA_DIR: dir }), store, logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await app.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const listTools = (token: string) =>
    fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  it('creates a connection with an exact grant, prints its token once, and the token works on /mcp', async () => {
    const created = await diosc(
      dir,
      'connections',
      'create',
      '--name',
      'Claude Desktop',
      '--grant',
      'notes:items_list,item_read',
      '--grant',
      'inbox:items_list',
      '--expires-days',
      '30',
    );
    expect(created.code).toBe(0);
    const token = /Token \(shown once; copy it now\): (dsc_\S+)/.exec(created.stdout)?.[1];
    expect(token).toBeDefined();
    expect(created.stdout).toContain('MCP URL: http://localhost:3000/mcp');
    expect(created.stdout).toContain('inbox: items_list; notes: items_list, item_read');

    const response = await listTools(token!);
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as { result: { tools: { name: string }[] } };
    expect(result.tools.map((tool) => tool.name)).toEqual(['collections_list', 'items_list', 'item_read']);

    const listed = await diosc(dir, 'connections', 'list');
    expect(listed.stdout).toContain('active   Claude Desktop');
    expect(listed.stdout).not.toContain(token!);

    // Stored hashed: the plaintext is in no row and no database file.
    const row = await store.db
      .selectFrom('app_connections')
      .selectAll()
      .where('display_name', '=', 'Claude Desktop')
      .executeTakeFirstOrThrow();
    expect(row.provenance).toBe('owner-cli');
    expect(row.token_hash).not.toContain(token!.slice(4));
    for (const file of ['diosc.sqlite', 'diosc.sqlite-wal']) {
      expect(readFileSync(join(dir, file)).includes(token!)).toBe(false);
    }
  });

  it('rotates and revokes: each old token stops working at once', async () => {
    const created = JSON.parse(
      (await diosc(dir, 'connections', 'create', '--name', 'Bot', '--grant', 'notes:items_list', '--json'))
        .stdout,
    ) as {
      connection: { id: string };
      token: string;
    };
    expect((await listTools(created.token)).status).toBe(200);

    const rotated = JSON.parse(
      (await diosc(dir, 'connections', 'rotate', created.connection.id, '--json')).stdout,
    ) as { token: string };
    expect((await listTools(created.token)).status).toBe(401);
    expect((await listTools(rotated.token)).status).toBe(200);

    const revoked = await diosc(dir, 'connections', 'revoke', created.connection.id);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain('Revoked');
    expect((await listTools(rotated.token)).status).toBe(401);
    expect((await diosc(dir, 'connections', 'list')).stdout).toContain('revoked  Bot');
  });

  it('refuses a grant naming an unknown collection or function, and creates nothing', async () => {
    const before = await store.db.selectFrom('app_connections').select('id').execute();
    const unknownCollection = await diosc(
      dir,
      'connections',
      'create',
      '--name',
      'X',
      '--grant',
      'secrets:items_list',
    );
    expect(unknownCollection.code).toBe(1);
    expect(unknownCollection.stderr).toContain('There is no collection "secrets"');
    const unavailable = await diosc(
      dir,
      'connections',
      'create',
      '--name',
      'X',
      '--grant',
      'drive:item_write',
    );
    expect(unavailable.code).toBe(1);
    expect(unavailable.stderr).toMatch(/item_write is not available/);
    const malformed = await diosc(dir, 'connections', 'create', '--name', 'X', '--grant', 'notes');
    expect(malformed.code).toBe(1);
    const badFlag = await diosc(dir, 'connections', 'create', '--nam', 'X');
    expect(badFlag.code).toBe(2);
    expect(await store.db.selectFrom('app_connections').select('id').execute()).toEqual(before);
  });

  it('resets the owner password to a new generated one, printed once', async () => {
    const reset = await diosc(dir, 'reset-password');
    expect(reset.code).toBe(0);
    const password = /\(shown once\): (\S+)/.exec(reset.stdout)?.[1];
    expect(password).toBeDefined();
    const account = await createAccounts(store.db).findByEmail('owner@localhost');
    expect(await verifyPassword(account!.password_hash!, password!)).toBe(true);
    expect(await verifyPassword(account!.password_hash!, 'first password')).toBe(false);
  });
});
