import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { recordServerUrl } from '../../src/server-url-record.js';
import { runDiosc } from './support/run-diosc.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `diosc connections create …` in-process on a fresh data dir, with `env` over the test's own. */
function create(env: NodeJS.ProcessEnv) {
  const dir = mkdtempSync(join(tmpdir(), 'diosc-mcp-url-'));
  dirs.push(dir);
  const {
    DIOSC_PORT: _port,
    DIOSC_PUBLIC_ORIGIN: _origin,
    DIOSC_CONFIG: _config,
    ...inherited
  } = process.env;
  const run = (extra: string[] = []) =>
    runDiosc(['connections', 'create', '--name', 'Agent', '--grant', 'inbox:items_list', ...extra], {
      ...inherited,
      DIOSC_DATA_DIR: dir,
      DIOSC_OWNER_PASSWORD: 'mcp url pass',
      DIOSC_LOG_LEVEL: 'silent',
      ...env,
    });
  return { dir, run };
}

describe('diosc connections create: the MCP URL it prints', () => {
  it('is the configured port’s, as the server reads DIOSC_PORT', async () => {
    const { run } = create({ DIOSC_PORT: '4567' });
    const result = await run();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}MCP URL: http:\/\/localhost:4567\/mcp$/m);
    expect(result.stdout).not.toContain('the default');
  });

  it('is the public origin of the server’s config file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'diosc-mcp-url-config-')), 'diosc.json');
    dirs.push(join(file, '..'));
    writeFileSync(file, JSON.stringify({ port: 4568, publicOrigin: 'https://hub.example' }));
    const { run } = create({ DIOSC_CONFIG: file });
    const result = await run();
    expect(result.stdout).toMatch(/^ {2}MCP URL: https:\/\/hub\.example\/mcp$/m);
  });

  it('is where the server last started on the data dir when this shell sets no port, and says so', async () => {
    const { dir, run } = create({});
    recordServerUrl(dir, 'http://localhost:4569');
    const result = await run();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}MCP URL: http:\/\/localhost:4569\/mcp$/m);
    expect(result.stdout).toContain(`(where the server last started, per ${join(dir, 'server-url')};`);
    const json = await run(['--json']);
    expect(JSON.parse(json.stdout.trim().split('\n').at(-1)!).url).toBe('http://localhost:4569/mcp');
  });

  it('is the --url given, over everything; anything but an origin is refused before a connection is made', async () => {
    const { dir, run } = create({ DIOSC_PORT: '4567' });
    recordServerUrl(dir, 'http://localhost:4569');
    const given = await run(['--url', 'http://127.0.0.1:4570/']);
    expect(given.code).toBe(0);
    expect(given.stdout).toMatch(/^ {2}MCP URL: http:\/\/127\.0\.0\.1:4570\/mcp$/m);
    const refused = await run(['--url', 'http://127.0.0.1:4570/mcp']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--url takes the server's origin, such as http://localhost:4000");
    const listed = await runCli(['connections', 'list', '--json'], {
      out: (line) => {
        expect(JSON.parse(line)).toHaveLength(1);
      },
      err: () => undefined,
      env: { DIOSC_DATA_DIR: dir, DIOSC_LOG_LEVEL: 'silent' },
    });
    expect(listed).toBe(0);
  });

  it('is the default address when nothing names another, and says it is a guess', async () => {
    const { run } = create({});
    const result = await run();
    expect(result.stdout).toMatch(/^ {2}MCP URL: http:\/\/localhost:3000\/mcp$/m);
    expect(result.stdout).toContain('(the default: DIOSC_PORT and DIOSC_PUBLIC_ORIGIN are unset here');
    expect(result.stdout).toContain('pass --url <origin>');
  });
});
