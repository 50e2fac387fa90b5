import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts } from '../../src/account/accounts.js';
import { buildApp } from '../../src/app.js';
import { verifyPassword } from '../../src/auth/passwords.js';
import { loadConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/store/dialect.js';
import { builtBin, ROOT } from '../support/built-bin.js';
import { cliTestEnv, runDiosc } from './support/run-diosc.js';

const run = promisify(execFile);
const bin = builtBin();

const diosc = (dir: string, ...args: string[]) => runDiosc(args, cliTestEnv(dir));

/** The built bin as a shell starts it: by its own path, which its shebang runs with node. */
async function dioscProcess(dir: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(bin, args, { cwd: ROOT, env: cliTestEnv(dir) });
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

  it('lists the collections whose IDs a grant names, and says so in `connections create --help`', async () => {
    const listed = await diosc(dir, 'collections', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /^notes\s+storage\s+Notes\n\s+grantable: items_list,item_read,item_write,item_delete$/m,
    );
    expect(listed.stdout).toMatch(/^inbox\s+inbox\s+Inbox\n\s+grantable: items_list,item_read,item_write$/m);
    expect(listed.stdout).toContain('--grant <id>:<function,…>');
    const rows = JSON.parse((await diosc(dir, 'collections', 'list', '--json')).stdout) as {
      id: string;
      functions: string[];
    }[];
    expect(rows.map((row) => row.id)).toEqual(['drive', 'inbox', 'notes']);
    // What it lists is what --grant takes.
    const grant = rows.map((row) => `--grant=${row.id}:${row.functions.join(',')}`);
    expect((await diosc(dir, 'connections', 'create', '--name', 'All listed', ...grant)).code).toBe(0);

    const help = await diosc(dir, 'connections', 'create', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('diosc collections list');
    expect(help.stdout).toContain('diosc connections create');
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

  it('runs as a real process: output on stdout, exit 0; a usage error on stderr, exit 2', async () => {
    // (A refusal's exit 1 is runCli's own, checked in-process above and below.)
    const listed = await dioscProcess(dir, ['connections', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/No HTTP MCP connections yet|grant: /);
    const unknown = await dioscProcess(dir, ['no-such-command']);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('Diosc command line');
  });

  it('prints its help from the bin alone: no other chunk of the build and no dependency is loaded', async () => {
    const loads = join(ROOT, 'test-results', 'cli-loads', `help-${process.pid}.txt`);
    mkdirSync(join(ROOT, 'test-results', 'cli-loads'), { recursive: true });
    rmSync(loads, { force: true });
    const hook = join(import.meta.dirname, 'support', 'record-loads.mjs');
    const help = await run(process.execPath, ['--import', hook, bin, '--help'], {
      cwd: ROOT,
      env: cliTestEnv(dir, { DIOSC_TEST_LOADS_FILE: loads }),
    });
    expect(help.stdout).toContain('diosc start');
    expect(help.stdout).toContain('diosc connections create');
    const loaded = readFileSync(loads, 'utf8').split('\n').filter(Boolean);
    // The bin itself, so the hook saw the run; nothing from node_modules (fastify, the AI and MCP
    // SDKs, kysely) and no other chunk of dist/ (the store, the app, the commands).
    expect(loaded).toContain(pathToFileURL(bin).href);
    expect(loaded.filter((url) => url.startsWith('file:') && !url.includes('/test/cli/support/'))).toEqual([
      pathToFileURL(bin).href,
    ]);
  });

  it('disconnects an external source through the core: /mcp answers source_revoked; reconnect is refused', async () => {
    const created = JSON.parse(
      (
        await diosc(
          dir,
          'connections',
          'create',
          '--name',
          'Mirror reader',
          '--grant',
          'drive:items_list',
          '--grant',
          'notes:items_list',
          '--json',
        )
      ).stdout,
    ) as { token: string; connection: { id: string } };
    const callTool = async (collection: string) => {
      const response = await fetch(`${url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${created.token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'items_list', arguments: { collection } },
        }),
      });
      return (
        (await response.json()) as {
          result: { isError?: boolean; structuredContent: { error?: { code: string } } };
        }
      ).result;
    };
    expect((await callTool('drive')).isError).toBeFalsy();
    const listed = await diosc(dir, 'collections', 'list');
    expect(listed.stdout).toMatch(/drive\s+external\s+Drive \(mirror\) \(Example Drive\)\n/);

    const refused = await diosc(dir, 'collections', 'disconnect', 'notes');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('only external collections have a provider source');
    const grantBefore = await store.db
      .selectFrom('app_connections')
      .select(['grant_json', 'grant_generation'])
      .where('id', '=', created.connection.id)
      .executeTakeFirstOrThrow();

    const done = await diosc(dir, 'collections', 'disconnect', 'drive');
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('Disconnected the source of drive "Drive (mirror)"');
    expect((await callTool('drive')).structuredContent.error?.code).toBe('source_revoked');
    expect((await callTool('notes')).isError).toBeFalsy();
    expect((await diosc(dir, 'collections', 'list')).stdout).toMatch(/drive .*source disconnected/);
    // The grant naming it keeps every entry; a second disconnect changes nothing.
    expect(
      await store.db
        .selectFrom('app_connections')
        .select(['grant_json', 'grant_generation'])
        .where('id', '=', created.connection.id)
        .executeTakeFirstOrThrow(),
    ).toEqual(grantBefore);
    expect((await diosc(dir, 'collections', 'disconnect', 'drive')).stdout).toContain(
      'was already disconnected',
    );

    const reconnect = await diosc(dir, 'collections', 'reconnect', 'drive');
    expect(reconnect.code).toBe(1);
    expect(reconnect.stderr).toContain('stays disconnected');
    expect((await callTool('drive')).structuredContent.error?.code).toBe('source_revoked');
    expect((await diosc(dir, 'collections', 'reconnect', 'notes')).stderr).toContain('nothing to reconnect');
  });
});
